package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.microburst.drpc.InProcessDrpc;
import io.microburst.it.support.Await;
import io.microburst.it.support.Topologies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.storm.ILocalCluster;
import org.apache.storm.ILocalDRPC;
import org.apache.storm.LocalDRPC;
import org.apache.storm.drpc.DRPCSpout;
import org.apache.storm.drpc.LinearDRPCTopologyBuilder;
import org.apache.storm.drpc.ReturnResults;
import org.apache.storm.generated.DRPCExceptionType;
import org.apache.storm.generated.DRPCExecutionException;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.FailedException;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.trident.TridentState;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.operation.builtin.Count;
import org.apache.storm.trident.operation.builtin.FilterNull;
import org.apache.storm.trident.operation.builtin.MapGet;
import org.apache.storm.trident.operation.builtin.Sum;
import org.apache.storm.trident.testing.FixedBatchSpout;
import org.apache.storm.trident.testing.MemoryMapState;
import org.apache.storm.trident.testing.Split;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

/**
 * Distributed RPC as Storm's examples use it (a hand-wired DRPCSpout/ReturnResults topology, LinearDRPCTopologyBuilder,
 * a Trident DRPC stream querying a word count), served in-process by Microburst's {@link InProcessDrpc} and by Storm's
 * own {@link LocalDRPC}; every runtime and server gives the same answers.
 */
class DrpcParityTest extends ParityTestSupport {
    private static final Duration LIMIT = Duration.ofSeconds(60);

    /** The manual DRPC example's bolt: appends "!" and passes the return info on. */
    public static class ExclaimWithReturnInfo extends BaseBasicBolt {
        @Override
        public void execute(Tuple tuple, BasicOutputCollector collector) {
            collector.emit(new Values(tuple.getString(0) + "!", tuple.getValue(1)));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("result", "return-info"));
        }
    }

    /** The linear DRPC example's bolt: (request id, argument) to (request id, argument + "!"). */
    public static class Exclaim extends BaseBasicBolt {
        @Override
        public void execute(Tuple tuple, BasicOutputCollector collector) {
            String input = tuple.getString(1);
            if (input.equals("fail")) {
                throw new FailedException("asked to fail");
            }
            collector.emit(new Values(tuple.getValue(0), input + "!"));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id", "result"));
        }
    }

    @Test
    void handWiredDrpcTopologyAnswersOnBothRuntimes() throws Exception {
        Map<String, List<String>> answers = new TreeMap<>();
        for (String runtime : RUNTIMES) {
            try (InProcessDrpc drpc = new InProcessDrpc()) {
                TopologyBuilder builder = new TopologyBuilder();
                builder.setSpout("drpc", new DRPCSpout("exclaim", drpc));
                builder.setBolt("exclaim", new ExclaimWithReturnInfo(), 2).shuffleGrouping("drpc");
                builder.setBolt("return", new ReturnResults(), 2).shuffleGrouping("exclaim");
                answers.put(runtime, ask(runtime, "manual", builder.createTopology(), drpc, "exclaim", "hello", "goodbye"));
            }
        }
        assertEquals(Map.of("microburst", List.of("hello!", "goodbye!"), "storm", List.of("hello!", "goodbye!")), answers);
    }

    @Test
    void linearDrpcTopologyAnswersAndFailsOnBothRuntimes() throws Exception {
        for (String runtime : RUNTIMES) {
            for (ILocalDRPC drpc : List.of(new InProcessDrpc(), new LocalDRPC())) {
                try (drpc) {
                    LinearDRPCTopologyBuilder builder = new LinearDRPCTopologyBuilder("exclamation");
                    builder.addBolt(new Exclaim(), 3);
                    String on = runtime + " with " + drpc.getClass().getSimpleName();
                    ILocalCluster cluster = cluster(runtime);
                    String name = Topologies.uniqueName("linear");
                    cluster.submitTopology(name, Topologies.baseConf(), builder.createLocalTopology(drpc));
                    try {
                        assertEquals("hello!", drpc.execute("exclamation", "hello"), on);
                        assertEquals("again!", drpc.execute("exclamation", "again"), on);
                        DRPCExecutionException failed = assertThrows(DRPCExecutionException.class,
                            () -> drpc.execute("exclamation", "fail"), on);
                        assertEquals(DRPCExceptionType.FAILED_REQUEST, failed.get_type(), on);
                    } finally {
                        Topologies.killAndAwaitGone(cluster, name);
                    }
                }
            }
        }
    }

    @Test
    void tridentDrpcStreamQueriesAWordCountOnBothRuntimes() throws Exception {
        Map<String, String> answers = new TreeMap<>();
        for (String runtime : RUNTIMES) {
            try (InProcessDrpc drpc = new InProcessDrpc()) {
                FixedBatchSpout spout = new FixedBatchSpout(new Fields("sentence"), 3,
                    new Values("the cow jumped over the moon"), new Values("the man went to the store and bought some candy"),
                    new Values("four score and seven years ago"), new Values("how many apples can you eat"),
                    new Values("to be or not to be the person"));
                TridentTopology trident = new TridentTopology();
                TridentState counts = trident.newStream("sentences-" + runtime, spout)
                    .each(new Fields("sentence"), new Split(), new Fields("word"))
                    .groupBy(new Fields("word"))
                    .persistentAggregate(new MemoryMapState.Factory(), new Count(), new Fields("count"));
                trident.newDRPCStream("words", drpc)
                    .each(new Fields("args"), new Split(), new Fields("word"))
                    .groupBy(new Fields("word"))
                    .stateQuery(counts, new Fields("word"), new MapGet(), new Fields("count"))
                    .each(new Fields("count"), new FilterNull())
                    .aggregate(new Fields("count"), new Sum(), new Fields("sum"));
                ILocalCluster cluster = cluster(runtime);
                String name = Topologies.uniqueName("trident-drpc");
                cluster.submitTopology(name, Topologies.baseConf(), trident.build());
                try {
                    // "the" 5, "to" 3, "be" 2, "cow" 1: 11 once every sentence is counted.
                    AtomicReference<String> last = new AtomicReference<>();
                    Await.until(runtime + " word count to reach 11", () -> {
                        try {
                            last.set(drpc.execute("words", "the to be cow"));
                        } catch (Exception e) {
                            throw new AssertionError(e);
                        }
                        return "[[11]]".equals(last.get());
                    }, LIMIT, last::get);
                    answers.put(runtime, drpc.execute("words", "cow moon candy"));
                } finally {
                    Topologies.killAndAwaitGone(cluster, name);
                }
            }
        }
        assertEquals(Map.of("microburst", "[[3]]", "storm", "[[3]]"), answers);
    }

    private List<String> ask(String runtime, String label, StormTopology topology, ILocalDRPC drpc, String function,
                             String... args) throws Exception {
        ILocalCluster cluster = cluster(runtime);
        String name = Topologies.uniqueName(label);
        cluster.submitTopology(name, Topologies.baseConf(), topology);
        try {
            List<String> answers = new ArrayList<>();
            for (String arg : args) {
                answers.add(drpc.execute(function, arg));
            }
            return answers;
        } finally {
            Topologies.killAndAwaitGone(cluster, name);
        }
    }
}
