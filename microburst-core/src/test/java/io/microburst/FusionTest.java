package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/**
 * Fused chains run in the producer's thread; a fused bolt that turns out slow gets a thread of its own. When a busy
 * chain is cut in two is decided from measurements by a pure function, tested with injected ones
 * ({@code PlacementPolicyTest}, {@code SlowStreakTest}); {@code BalancerCutTest} shows a running chain cut.
 */
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
        private OutputCollector collector;

        /** Parks {@code nanos} on each tuple. */
        Worker(String key, long nanos) {
            this.key = key;
            this.nanos = nanos;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            if (nanos > 0) {
                LockSupport.parkNanos(nanos);
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
