package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
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
import org.junit.jupiter.api.Test;

/** Fused chains run in the producer's thread; a fused bolt that turns out slow gets a thread of its own. */
class FusionTest {
    static final Map<String, Set<String>> THREADS = new ConcurrentHashMap<>();
    static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    static void saw(String key) {
        THREADS.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(Thread.currentThread().getName());
        COUNTS.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
    }

    static long count(String key) {
        return COUNTS.getOrDefault(key, new AtomicLong()).get();
    }

    public static class Source extends BaseRichSpout {
        private final String key;
        private final int total;
        private SpoutOutputCollector collector;
        private int next;

        Source(String key, int total) {
            this.key = key;
            this.total = total;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (next < total) {
                saw(key + ".spout");
                collector.emit(new Values(next), next++);
            }
        }

        @Override
        public void ack(Object id) {
            COUNTS.computeIfAbsent(key + ".acked", k -> new AtomicLong()).incrementAndGet();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    public static class Worker extends BaseRichBolt {
        private final String key;
        private final long nanos;
        private final int slowTuples;
        private OutputCollector collector;
        private int executed;
        static final int ALWAYS_BUSY = Integer.MAX_VALUE - 1;

        Worker(String key, long nanos) {
            this(key, nanos, Integer.MAX_VALUE);
        }

        /**
         * Busy for {@code nanos} on each of its first {@code slowTuples} tuples (a cold start), or on every tuple when
         * {@code slowTuples} is {@link #ALWAYS_BUSY}.
         */
        Worker(String key, long nanos, int slowTuples) {
            this.key = key;
            this.nanos = nanos;
            this.slowTuples = slowTuples;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            if (nanos > 0 && (slowTuples == ALWAYS_BUSY || executed++ < slowTuples)) {
                if (slowTuples == Integer.MAX_VALUE) {
                    LockSupport.parkNanos(nanos);
                } else {
                    long until = System.nanoTime() + nanos;
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                }
            }
            saw(key);
            collector.emit(input, new Values(input.getInteger(0)));
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    static void await(String key, long n) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (count(key) < n && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(n, count(key), key);
    }

    @Test
    void fastChainRunsOnTheSpoutThread() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new Source("fast", 10_000));
        b.setBolt("a", new Worker("fast.a", 0)).localOrShuffleGrouping("spout");
        b.setBolt("b", new Worker("fast.b", 0)).shuffleGrouping("a");
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("fast", new Config(), b.createTopology());
            await("fast.acked", 10_000);
            assertEquals(THREADS.get("fast.spout"), THREADS.get("fast.a"));
            assertEquals(THREADS.get("fast.spout"), THREADS.get("fast.b"));
            assertEquals(1, cluster.liveExecutors());
        }
    }

    @Test
    void slowFusedBoltGetsItsOwnThreadAndNothingIsLost() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new Source("slow", 300));
        b.setBolt("a", new Worker("slow.a", 1_000_000)).localOrShuffleGrouping("spout");
        b.setBolt("b", new Worker("slow.b", 0)).shuffleGrouping("a");
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("slow", new Config(), b.createTopology());
            await("slow.acked", 300);
            assertEquals(300, count("slow.a"));
            assertEquals(300, count("slow.b"));
            Set<String> spoutThreads = THREADS.get("slow.spout");
            assertTrue(THREADS.get("slow.a").size() == 2, "a ran fused, then on its own thread: " + THREADS.get("slow.a"));
            assertEquals(2, cluster.liveExecutors());
            String own = THREADS.get("slow.a").stream().filter(t -> !spoutThreads.contains(t)).findFirst().orElseThrow();
            assertNotEquals(spoutThreads.iterator().next(), own);
            assertTrue(THREADS.get("slow.b").contains(own), "b moved with a: " + THREADS.get("slow.b"));
        }
    }

    @Test
    void aShortRunOfSlowExecutesDoesNotMoveAFusedBolt() throws Exception {
        // six executes of 0.3 ms in a row: slow enough to count, over far less time than a move needs
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new Source("blip", 2000));
        b.setBolt("a", new Worker("blip.a", 300_000, 6)).localOrShuffleGrouping("spout");
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("blip", new Config(), b.createTopology());
            await("blip.acked", 2000);
            assertEquals(THREADS.get("blip.spout"), THREADS.get("blip.a"));
            assertEquals(1, cluster.liveExecutors());
        }
    }

    @Test
    void aBusyChainIsCutInTwoWhenACoreIsFree() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs a free core");
        // a and b each busy 5 µs a tuple: b (with nothing after it) takes about half of the spout thread's time
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new Source("cut", Integer.MAX_VALUE));
        b.setBolt("a", new Worker("cut.a", 5_000, Worker.ALWAYS_BUSY)).localOrShuffleGrouping("spout");
        b.setBolt("b", new Worker("cut.b", 5_000, Worker.ALWAYS_BUSY)).shuffleGrouping("a");
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("cut", new Config(), b.createTopology());
            long deadline = System.currentTimeMillis() + 20_000;
            while (cluster.liveExecutors() < 2 && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            assertEquals(2, cluster.liveExecutors(), "the chain was cut in two");
            long before = count("cut.b");
            await(() -> count("cut.b") > before + 1000, "b keeps running on its own thread");
            assertEquals(THREADS.get("cut.spout"), THREADS.get("cut.a"), "a stayed with the spout");
            assertEquals(2, THREADS.get("cut.b").size(), "b ran fused, then on a thread of its own: " + THREADS.get("cut.b"));
        }
    }

    @Test
    void aBusyChainOfCheapTasksStaysFused() throws Exception {
        // busy all the time, but each task costs far less than a hand-over between threads
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new Source("cheap", Integer.MAX_VALUE));
        b.setBolt("a", new Worker("cheap.a", 0)).localOrShuffleGrouping("spout");
        b.setBolt("b", new Worker("cheap.b", 0)).shuffleGrouping("a");
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("cheap", new Config(), b.createTopology());
            Thread.sleep(3_500); // three balance windows and a half
            assertTrue(count("cheap.b") > 0);
            assertEquals(1, cluster.liveExecutors());
            assertEquals(THREADS.get("cheap.spout"), THREADS.get("cheap.b"));
        }
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(condition.getAsBoolean(), what);
    }

    @Test
    void fusionCanBeTurnedOff() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new Source("off", 1000));
        b.setBolt("a", new Worker("off.a", 0)).localOrShuffleGrouping("spout");
        Config conf = new Config();
        conf.put(MicroburstConfig.FUSION, false);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("off", conf, b.createTopology());
            await("off.acked", 1000);
            assertNotEquals(THREADS.get("off.spout"), THREADS.get("off.a"));
            assertEquals(2, cluster.liveExecutors());
        }
    }
}
