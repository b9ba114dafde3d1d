package io.microburst.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import io.microburst.MicroburstCluster;
import org.apache.storm.Config;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseStatefulBolt;
import org.apache.storm.topology.base.BaseWindowedBolt;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.operation.BaseFunction;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.operation.builtin.Count;
import org.apache.storm.trident.testing.FixedBatchSpout;
import org.apache.storm.trident.testing.MemoryMapState;
import org.apache.storm.trident.testing.Split;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.windowing.TupleWindow;
import org.junit.jupiter.api.Test;

/**
 * What storm-client builds on top of spouts and bolts (Trident, windowed bolts, stateful bolts with checkpoints)
 * runs unchanged, because it compiles down to an ordinary topology.
 */
class HigherLevelApisTest {
    static final Map<String, Long> TRIDENT_COUNTS = new ConcurrentHashMap<>();
    static final List<Integer> WINDOW_SIZES = new CopyOnWriteArrayList<>();
    static final AtomicLong STATE_INITS = new AtomicLong();
    static final AtomicLong STATEFUL_SEEN = new AtomicLong();

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    public static class RecordCount extends BaseFunction {
        @Override
        public void execute(TridentTuple tuple, TridentCollector collector) {
            TRIDENT_COUNTS.put(tuple.getString(0), tuple.getLong(1));
        }
    }

    @Test
    void tridentWordCountIsExact() throws Exception {
        FixedBatchSpout spout = new FixedBatchSpout(new Fields("sentence"), 3,
            new Values("the cow jumped over the moon"),
            new Values("the man went to the store"),
            new Values("four score and seven years ago"),
            new Values("how many apples can you eat"),
            new Values("to be or not to be the person"));
        spout.setCycle(false);
        TridentTopology trident = new TridentTopology();
        trident.newStream("sentences", spout)
            .each(new Fields("sentence"), new Split(), new Fields("word"))
            .groupBy(new Fields("word"))
            .persistentAggregate(new MemoryMapState.Factory(), new Count(), new Fields("count"))
            .newValuesStream()
            .each(new Fields("word", "count"), new RecordCount(), new Fields());
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("trident", new Config(), trident.build());
            await(() -> Long.valueOf(5).equals(TRIDENT_COUNTS.get("the")) && Long.valueOf(3).equals(
                TRIDENT_COUNTS.get("to")), "trident counts");
            assertEquals(1L, TRIDENT_COUNTS.get("moon"));
            assertEquals(2L, TRIDENT_COUNTS.get("be"));
        }
    }

    public static class SizeRecorder extends BaseWindowedBolt {
        @Override
        public void execute(TupleWindow window) {
            WINDOW_SIZES.add(window.get().size());
        }
    }

    @Test
    void countWindowedBoltSeesFullWindows() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("words", new TestWordSpout(), 1);
        b.setBolt("window", new SizeRecorder().withTumblingWindow(BaseWindowedBolt.Count.of(10)), 1)
            .shuffleGrouping("words");
        Config conf = new Config();
        conf.setMessageTimeoutSecs(60);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("windows", conf, b.createTopology());
            await(() -> WINDOW_SIZES.size() >= 3, "three windows");
        }
        for (int size : new ArrayList<>(WINDOW_SIZES)) {
            assertEquals(10, size);
        }
    }

    public static class CountingStateBolt extends BaseStatefulBolt<KeyValueState<String, Long>> {
        private KeyValueState<String, Long> state;
        private OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void initState(KeyValueState<String, Long> state) {
            this.state = state;
            STATE_INITS.incrementAndGet();
        }

        @Override
        public void execute(Tuple input) {
            String word = input.getString(0);
            state.put(word, state.get(word, 0L) + 1);
            STATEFUL_SEEN.incrementAndGet();
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @Test
    void statefulBoltIsInitialisedByCheckpointsAndProcesses() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("words", new TestWordSpout(), 1);
        b.setBolt("state", new CountingStateBolt(), 1).shuffleGrouping("words");
        Config conf = new Config();
        conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 100);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("stateful", conf, b.createTopology());
            await(() -> STATE_INITS.get() >= 1 && STATEFUL_SEEN.get() > 20, "state init and tuples");
        }
        assertTrue(STATE_INITS.get() >= 1);
    }
}
