package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.storm.Config;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tuples handed between threads: executors hand each other whole batches, and a thread of the user's own hands over
 * single tuples. Nothing may be lost, duplicated or reordered between one producer task and one consumer task.
 */
class HandOverTest {
    /** What the sink of each run saw, by run name; a test's topology names are unique. */
    static final Map<String, List<Integer>> SEEN = new java.util.concurrent.ConcurrentHashMap<>();

    /** Emits (anchored) and acks every tuple from a thread of its own, not from execute. */
    public static class OwnThreadRelay extends BaseRichBolt {
        private transient OutputCollector collector;
        private transient ExecutorService own;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.own = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "relay-own-thread");
                t.setDaemon(true);
                return t;
            });
        }

        @Override
        public void execute(Tuple input) {
            own.execute(() -> {
                collector.emit(input, new Values(input.getInteger(0)));
                collector.ack(input);
            });
        }

        @Override
        public void cleanup() {
            own.shutdownNow();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    public static class Sink extends BaseRichBolt {
        private final String run;
        private transient OutputCollector collector;

        Sink(String run) {
            this.run = run;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            List<Integer> seen = SEEN.computeIfAbsent(run, k -> java.util.Collections.synchronizedList(new ArrayList<>()));
            seen.add(input.getInteger(0));
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            // emits nothing
        }
    }

    private static List<Integer> seen(String run) {
        synchronized (SEEN.get(run)) {
            return new ArrayList<>(SEEN.get(run));
        }
    }

    @ParameterizedTest(name = "fusion {0}")
    @ValueSource(booleans = {true, false})
    void tuplesFromOneProducerArriveOnceAndInOrderThroughBatchesOfEverySize(boolean fusion) throws Exception {
        // 10,007 tuples in batches of 64: full batches, then a part batch handed over when the spout runs dry
        String run = "order-" + fusion;
        int total = 10_007;
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new FusionTest.Source(run, total));
        b.setBolt("sink", new Sink(run)).shuffleGrouping("spout");
        Config conf = new Config();
        conf.put(MicroburstConfig.FUSION, fusion);
        conf.put(MicroburstConfig.EXECUTOR_QUEUE_SIZE, 256);
        conf.put(MicroburstConfig.PRODUCER_BATCH_SIZE, 64);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology(run, conf, b.createTopology());
            FusionTest.await(run + ".acked", total);
            assertEquals(fusion ? 1 : 2, cluster.liveExecutors());
            List<Integer> seen = seen(run);
            assertEquals(total, seen.size(), "tuples delivered");
            for (int i = 0; i < total; i++) {
                assertEquals(i, seen.get(i), "tuple " + i + " arrived in its place");
            }
        }
    }

    @ParameterizedTest(name = "fusion {0}")
    @ValueSource(booleans = {true, false})
    void tuplesEmittedAndAckedFromABoltsOwnThreadAreDeliveredAndComplete(boolean fusion) throws Exception {
        String run = "own-thread-" + fusion;
        int total = 3000;
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new FusionTest.Source(run, total));
        b.setBolt("relay", new OwnThreadRelay()).shuffleGrouping("spout");
        b.setBolt("sink", new Sink(run)).shuffleGrouping("relay");
        Config conf = new Config();
        conf.put(MicroburstConfig.FUSION, fusion);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology(run, conf, b.createTopology());
            FusionTest.await(run + ".acked", total);
            List<Integer> seen = seen(run);
            assertEquals(total, seen.size(), "tuples delivered");
            for (int i = 0; i < total; i++) {
                // one own thread emits in the order it executed: the order survives the hand-over
                assertEquals(i, seen.get(i), "tuple " + i + " arrived in its place");
            }
        }
    }

    /**
     * Tuple n goes on stream "a" or "b", tracked or not, by two hashes of n ({@link #onA}, {@link #tracked}): batches
     * mix two links and tracked with untracked tuples, in runs of every length and with no period that a batch size or
     * a reused batch could line up with.
     */
    public static class MixedSource extends BaseRichSpout {
        private final String run;
        private final int total;
        private transient SpoutOutputCollector collector;
        private transient int next;

        MixedSource(String run, int total) {
            this.run = run;
            this.total = total;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (next < total) {
                int n = next++;
                String stream = onA(n) ? "a" : "b";
                if (tracked(n)) {
                    collector.emit(stream, new Values(n), n);
                } else {
                    collector.emit(stream, new Values(n));
                }
            }
        }

        @Override
        public void ack(Object id) {
            FusionTest.COUNTS.computeIfAbsent(run + ".acked", k -> new java.util.concurrent.atomic.AtomicLong())
                .incrementAndGet();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declareStream("a", new Fields("n"));
            declarer.declareStream("b", new Fields("n"));
        }
    }

    /** Records each tuple as stream:n:tracked. */
    public static class DescribingSink extends BaseRichBolt {
        private final String run;
        private transient OutputCollector collector;

        DescribingSink(String run) {
            this.run = run;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            boolean tracked = !input.getMessageId().getAnchorsToIds().isEmpty();
            DESCRIBED.computeIfAbsent(run, k -> java.util.Collections.synchronizedList(new ArrayList<>()))
                .add(input.getSourceStreamId() + ":" + input.getInteger(0) + ":" + tracked);
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            // emits nothing
        }
    }

    static boolean onA(int n) {
        return (n * 0x9E3779B1) >>> 29 < 3;
    }

    static boolean tracked(int n) {
        return (n * 0x85EBCA6B) >>> 30 < 2;
    }

    static final Map<String, List<String>> DESCRIBED = new java.util.concurrent.ConcurrentHashMap<>();

    @ParameterizedTest(name = "fusion {0}")
    @ValueSource(booleans = {true, false})
    void batchesMixingStreamsAndTrackedTuplesKeepEachTuplesStreamAndId(boolean fusion) throws Exception {
        String run = "mixed-" + fusion;
        int total = 5_003;
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new MixedSource(run, total));
        b.setBolt("sink", new DescribingSink(run)).shuffleGrouping("spout", "a").shuffleGrouping("spout", "b");
        Config conf = new Config();
        conf.put(MicroburstConfig.FUSION, fusion);
        conf.put(MicroburstConfig.EXECUTOR_QUEUE_SIZE, 256);
        conf.put(MicroburstConfig.PRODUCER_BATCH_SIZE, 64);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology(run, conf, b.createTopology());
            int trackedCount = 0;
            for (int n = 0; n < total; n++) {
                trackedCount += tracked(n) ? 1 : 0;
            }
            FusionTest.await(run + ".acked", trackedCount);
            List<String> seen;
            synchronized (DESCRIBED.get(run)) {
                seen = new ArrayList<>(DESCRIBED.get(run));
            }
            assertEquals(total, seen.size(), "tuples delivered");
            for (int n = 0; n < total; n++) {
                assertEquals((onA(n) ? "a" : "b") + ":" + n + ":" + tracked(n), seen.get(n), "tuple " + n);
            }
        }
    }
}
