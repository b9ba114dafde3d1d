package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.MicroburstConfig;
import io.microburst.it.support.Await;
import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.Received;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.Runtimes;
import io.microburst.it.support.Topologies;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A tuple emitted by user code reaches its consumer while the call that emitted it is still running: a spout that emits
 * and then blocks inside {@code nextTuple} (storm-perf's LowThroughputTopo sleeps there), and a bolt that emits and then
 * blocks inside {@code execute} (a slow external call after the emit). Each call blocks on a gate only the test opens,
 * and the test opens it only once the consumer has the tuple, so a runtime that holds the tuple until the call returns
 * fails by timing out. Storm's LocalCluster (the reference) and Microburst, fused and unfused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SlowUserCallsParityTest {
    private static final int CALLS = 3;
    private static final Duration LIMIT = Duration.ofSeconds(30);
    /** Gates and where the user call waits now, by scope: components are serialized, so they find them by name. */
    private static final Map<String, CountDownLatch[]> GATES = new ConcurrentHashMap<>();
    private static final Map<String, AtomicInteger> BLOCKED_ON = new ConcurrentHashMap<>();

    private final Map<String, ILocalCluster> clusters = new LinkedHashMap<>();

    @BeforeAll
    void startClusters() throws Exception {
        for (String runtime : ParityTestSupport.RUNTIMES) {
            clusters.put(runtime, Runtimes.start(runtime));
        }
    }

    @AfterAll
    void closeClusters() throws Exception {
        for (ILocalCluster cluster : clusters.values()) {
            cluster.close();
        }
    }

    static Stream<Arguments> runs() {
        return Stream.of(Arguments.of(Runtimes.STORM, true), Arguments.of(Runtimes.MICROBURST, true),
            Arguments.of(Runtimes.MICROBURST, false));
    }

    @ParameterizedTest(name = "{0}, fusion {1}")
    @MethodSource("runs")
    void aSpoutsTupleArrivesWhileItsNextTupleBlocks(String runtime, boolean fusion) throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        String scope = Recorder.openScope("slow-spout");
        builder.setSpout("blocking", new EmitThenBlockSpout(scope), 1);
        builder.setBolt("sink", new CollectingBolt(scope), 1).localOrShuffleGrouping("blocking");
        runGated(runtime, fusion, scope, builder, "sink");
    }

    @ParameterizedTest(name = "{0}, fusion {1}")
    @MethodSource("runs")
    void aBoltsTupleArrivesWhileItsExecuteBlocks(String runtime, boolean fusion) throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        String scope = Recorder.openScope("slow-bolt");
        builder.setSpout("source", new CountingSpout(), 1);
        builder.setBolt("blocking", new EmitThenBlockBolt(scope), 1).shuffleGrouping("source");
        builder.setBolt("sink", new CollectingBolt(scope), 1).shuffleGrouping("blocking");
        runGated(runtime, fusion, scope, builder, "sink");
    }

    /**
     * For each call in turn: waits until the sink has the call's tuple while the call still waits at its gate, then opens
     * the gate. The first call is one the runtime knows nothing about yet; the later ones follow a slow call.
     */
    private void runGated(String runtime, boolean fusion, String scope, TopologyBuilder builder, String sink) throws Exception {
        CountDownLatch[] gates = new CountDownLatch[CALLS];
        for (int i = 0; i < CALLS; i++) {
            gates[i] = new CountDownLatch(1);
        }
        GATES.put(scope, gates);
        AtomicInteger blockedOn = new AtomicInteger(-1);
        BLOCKED_ON.put(scope, blockedOn);
        Config conf = Topologies.baseConf();
        conf.put(MicroburstConfig.FUSION, fusion); // a key Storm ignores
        ILocalCluster cluster = clusters.get(runtime);
        String name = Topologies.uniqueName("slow-calls");
        cluster.submitTopology(name, conf, builder.createTopology());
        try {
            for (int call = 0; call < CALLS; call++) {
                int seq = call;
                // the gate opens only below, so the call that emitted the tuple is still blocked when both hold
                Await.until(runtime + ": the sink to receive tuple " + seq + " while the call that emitted it blocks",
                    () -> blockedOn.get() == seq && receivedSeqs(scope, sink).contains((long) seq), LIMIT,
                    () -> "received " + receivedSeqs(scope, sink) + ", call blocked on gate " + blockedOn.get());
                gates[seq].countDown();
            }
            assertEquals(List.of(0L, 1L, 2L), receivedSeqs(scope, sink), runtime);
        } finally {
            for (CountDownLatch gate : gates) {
                gate.countDown();
            }
            Topologies.killAndAwaitGone(cluster, name);
            GATES.remove(scope);
            BLOCKED_ON.remove(scope);
            Recorder.closeScope(scope);
        }
    }

    private static List<Long> receivedSeqs(String scope, String sink) {
        return Recorder.all(scope, Received.class).stream().filter(r -> r.component().equals(sink))
            .map(r -> (Long) r.values().get(0)).toList();
    }

    /** The user call waits at gate {@code seq} of its scope, recording that it does, until the test opens it. */
    static void block(String scope, long seq) {
        CountDownLatch[] gates = GATES.get(scope);
        AtomicInteger blockedOn = BLOCKED_ON.get(scope);
        if (gates == null || seq >= gates.length) {
            return;
        }
        blockedOn.set((int) seq);
        try {
            gates[(int) seq].await(LIMIT.toSeconds() * 2, TimeUnit.SECONDS); // bounded: a failed test still ends
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            blockedOn.set(-1);
        }
    }

    /** Emits 0, 1, 2 with message ids, each followed, in the same nextTuple, by a wait at that tuple's gate. */
    static final class EmitThenBlockSpout extends BaseRichSpout {
        private final String scope;
        private transient SpoutOutputCollector collector;
        private long next;

        EmitThenBlockSpout(String scope) {
            this.scope = scope;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (next < CALLS) {
                long seq = next++;
                collector.emit(new Values(seq), seq);
                block(scope, seq);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("seq"));
        }
    }

    /** Emits 0, 1, 2, one a call, without waiting. */
    static final class CountingSpout extends BaseRichSpout {
        private transient SpoutOutputCollector collector;
        private long next;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (next < CALLS) {
                collector.emit(new Values(next), next);
                next++;
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("seq"));
        }
    }

    /** Emits each input on (anchored), then waits at that tuple's gate before acking it. */
    static final class EmitThenBlockBolt extends BaseRichBolt {
        private final String scope;
        private transient OutputCollector collector;

        EmitThenBlockBolt(String scope) {
            this.scope = scope;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            long seq = input.getLong(0);
            collector.emit(input, new Values(seq));
            block(scope, seq);
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("seq"));
        }
    }
}
