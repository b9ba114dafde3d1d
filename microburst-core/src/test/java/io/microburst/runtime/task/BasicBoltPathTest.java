package io.microburst.runtime.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import io.microburst.MicroburstConfig;
import io.microburst.NumberSpout;
import io.microburst.ReplayingSpout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.storm.Config;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicBoltExecutor;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.FailedException;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.ReportedFailedException;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A basic bolt (TopologyBuilder wraps it in storm-client's BasicBoltExecutor) runs without that wrapper, and keeps its
 * contract: every emit anchored to the input, the input acked after execute, failed on a FailedException (reported
 * first for a ReportedFailedException), emit returning the task ids the tuple went to; an emit on a stream nobody
 * subscribes to returns no task and adds nothing to the tree.
 */
class BasicBoltPathTest {
    static final int COUNT = 400;
    /** Per run: emit results and deliveries, keyed "id" -> task ids. */
    static final Map<String, Map<Integer, List<Integer>>> EMIT_RESULT = new ConcurrentHashMap<>();
    static final Map<String, Map<Integer, List<Integer>>> DELIVERED_TO = new ConcurrentHashMap<>();
    static final Map<String, Map<Integer, List<Integer>>> UNSUBSCRIBED_RESULT = new ConcurrentHashMap<>();

    @Test
    void stormsBasicBoltExecutorIsReplacedAndAnythingElseRunsAsItIs() {
        Relay relay = new Relay("unit");
        Object runner = BasicBoltRunner.of(new BasicBoltExecutor(relay));
        assertTrue(runner instanceof BasicBoltRunner, "a BasicBoltExecutor runs as " + runner.getClass());
        assertSame(relay, ((BasicBoltRunner) runner).basicBolt());
        Sink rich = new Sink("unit");
        assertSame(rich, BasicBoltRunner.of(rich));
        BasicBoltExecutor subclass = new BasicBoltExecutor(relay) {
        };
        assertSame(subclass, BasicBoltRunner.of(subclass), "a user's subclass keeps its own execute");
    }

    @ParameterizedTest(name = "fusion {0}, debug {1}")
    @CsvSource({"true,false", "false,false", "true,true"})
    void aBasicBoltKeepsStormsContract(boolean fusion, boolean debug) throws Exception {
        String run = "basic-" + fusion + "-" + debug;
        for (Map<String, ?> state : List.of(EMIT_RESULT, DELIVERED_TO, UNSUBSCRIBED_RESULT)) {
            state.remove(run); // a fresh start when the test runs again in the same JVM
        }
        NumberSpout.forget(run);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("ids", new NumberSpout(run, COUNT, "id"));
        b.setBolt("relay", new Relay(run)).shuffleGrouping("ids");
        b.setBolt("sink", new Sink(run), 2).fieldsGrouping("relay", new Fields("id"));
        Config conf = new Config();
        conf.put(Config.TOPOLOGY_ACKER_EXECUTORS, 1);
        conf.put(MicroburstConfig.FUSION, fusion);
        conf.put(Config.TOPOLOGY_DEBUG, debug);
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 300); // nothing may time out: every tree ends by ack or fail
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology(run, conf, b.createTopology());
            ReplayingSpout.await("every tree to end", 60, () -> NumberSpout.ended(run) == COUNT);
            Set<Integer> expectFailed = new TreeSet<>();
            Set<Integer> expectAcked = new TreeSet<>();
            for (int id = 0; id < COUNT; id++) {
                (id % 10 == 3 || id % 10 == 5 || id % 10 == 7 ? expectFailed : expectAcked).add(id);
            }
            assertEquals(expectFailed, new TreeSet<>(NumberSpout.failed(run)), "FailedException in the basic bolt (3, 7) and a "
                + "fail downstream of its anchored emit (5) fail the tree");
            assertEquals(expectAcked, new TreeSet<>(NumberSpout.acked(run)));
            ReplayingSpout.await("the relay's reported errors", 60,
                () -> errors(cluster, run) != null);
            List<ErrorInfo> errors = cluster.getTopologyInfoByName(run).get_errors().get("relay");
            assertTrue(errors != null && errors.stream().allMatch(e -> e.get_error().contains("reported by the relay"))
                && errors.size() >= 1, "only the ReportedFailedExceptions are reported: " + errors);
            Map<Integer, List<Integer>> results = map(EMIT_RESULT, run);
            Map<Integer, List<Integer>> delivered = map(DELIVERED_TO, run);
            for (int id : expectAcked) {
                assertEquals(delivered.get(id), results.get(id), "emit of " + id + " returns the task it reached");
                assertEquals(1, results.get(id).size());
            }
            Map<Integer, List<Integer>> unsubscribed = map(UNSUBSCRIBED_RESULT, run);
            assertEquals(COUNT - COUNT / 5, unsubscribed.size(), "every execute that did not throw emitted to nobody");
            assertTrue(unsubscribed.values().stream().allMatch(List::isEmpty), "an emit to nobody reaches no task");
        }
    }

    static List<ErrorInfo> errors(MicroburstCluster cluster, String run) {
        try {
            return cluster.getTopologyInfoByName(run).get_errors().get("relay");
        } catch (Exception e) {
            throw new AssertionError("no topology info for " + run, e);
        }
    }

    static Map<Integer, List<Integer>> map(Map<String, Map<Integer, List<Integer>>> all, String run) {
        return all.computeIfAbsent(run, r -> new ConcurrentHashMap<>());
    }

    /**
     * Emits each id on, anchored by its collector, and (id, "nobody") on a stream no component subscribes to; throws
     * FailedException for ids ending in 3 and ReportedFailedException for ids ending in 7, before emitting.
     */
    public static class Relay extends BaseBasicBolt {
        private final String run;

        Relay(String run) {
            this.run = run;
        }

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            int id = input.getInteger(0);
            if (id % 10 == 3) {
                throw new FailedException("failed by the relay");
            }
            if (id % 10 == 7) {
                throw new ReportedFailedException("reported by the relay");
            }
            map(EMIT_RESULT, run).put(id, new ArrayList<>(collector.emit(new Values(id))));
            map(UNSUBSCRIBED_RESULT, run).put(id, new ArrayList<>(collector.emit("nobody", new Values(id, "nobody"))));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id"));
            declarer.declareStream("nobody", new Fields("id", "note"));
        }
    }

    /** Records which task got each id; fails ids ending in 5, acks the others. */
    public static class Sink extends BaseRichBolt {
        private final String run;
        private transient OutputCollector collector;
        private transient int taskId;

        Sink(String run) {
            this.run = run;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.taskId = context.getThisTaskId();
        }

        @Override
        public void execute(Tuple input) {
            int id = input.getInteger(0);
            map(DELIVERED_TO, run).put(id, List.of(taskId));
            if (id % 10 == 5) {
                collector.fail(input);
            } else {
                collector.ack(input);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            // emits nothing
        }
    }
}
