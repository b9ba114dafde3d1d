package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

/**
 * A task sends to a fused target through the send of its own depth's parity, which runs the target's copy of the other
 * parity at once; a direct call between tasks of the same parity takes the general send instead. Here a diamond on one
 * shared thread makes such a call: the spout (depth 0) feeds {@code a} (fused, depth 1) and {@code sink} (rank 2 on the
 * carrier), so the spout's tuples to the sink go from an even depth to an even one. Every tuple must still arrive once
 * and every tree complete.
 */
class SameParitySendTest {
    /** Tuples the sink executed, per run and source component. */
    static final Map<String, AtomicInteger> SEEN = new ConcurrentHashMap<>();
    private static final AtomicInteger RUNS = new AtomicInteger();

    /** Counts each tuple by its source component, and acks it. */
    public static class Sink extends BaseRichBolt {
        private final String run;
        private transient OutputCollector collector;

        public Sink(String run) {
            this.run = run;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            SEEN.computeIfAbsent(run + "/" + input.getSourceComponent(), k -> new AtomicInteger()).incrementAndGet();
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    private static int seen(String run, String source) {
        AtomicInteger n = SEEN.get(run + "/" + source);
        return n == null ? 0 : n.get();
    }

    @Test
    void aDirectCallBetweenTasksOfTheSameParityDeliversEveryTupleOnce() throws Exception {
        String run = "same-parity-" + RUNS.incrementAndGet(); // the spout's and sink's records are per run
        int ids = 20_000;
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ReplayingSpout(run, ids), 1);
        b.setBolt("a", new SharedThreadsTest.PassOn(), 1).shuffleGrouping("spout");
        b.setBolt("sink", new Sink(run), 1).shuffleGrouping("spout").shuffleGrouping("a");
        Map<String, Object> conf = new HashMap<>();
        conf.put(MicroburstConfig.EXECUTOR_THREADS_MAX, 1);
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 300);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("sameparity", conf, b.createTopology());
            ReplayingSpout.await("every id acked", 120, () -> ReplayingSpout.acked(run).size() == ids);
            assertEquals(0, ReplayingSpout.fails(run).get(), "no tree failed");
            assertEquals(ids, seen(run, "spout"), "each id once from the spout (the same-parity call)");
            assertEquals(ids, seen(run, "a"), "each id once through a");
        }
    }
}
