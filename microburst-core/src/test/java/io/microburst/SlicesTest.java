package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Executors that outnumber the cores run as slices (one thread per slice, tuples inside a slice by direct call); the
 * slices feed each other both ways, and small queues between them must neither block nor lose a tuple.
 */
class SlicesTest {
    static final int WORDS = 5;
    static final AtomicLong ACKED = new AtomicLong();
    static final AtomicLong FAILED = new AtomicLong();
    static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();
    static final Map<String, Set<Integer>> COUNTED_BY = new ConcurrentHashMap<>();

    /** Emits {@code total / tasks} sentences of five words each, acked. */
    public static class Sentences extends BaseRichSpout {
        private final int total;
        private SpoutOutputCollector collector;
        private int next;
        private int end;

        Sentences(int total) {
            this.total = total;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            int tasks = context.getComponentTasks(context.getThisComponentId()).size();
            next = context.getThisTaskIndex() * (total / tasks);
            end = next + total / tasks;
        }

        @Override
        public void nextTuple() {
            if (next < end) {
                StringBuilder s = new StringBuilder();
                for (int w = 0; w < WORDS; w++) {
                    s.append(w == 0 ? "" : " ").append("w").append((next * 7 + w) % 97);
                }
                collector.emit(new Values(s.toString()), next);
                next++;
            }
        }

        @Override
        public void ack(Object id) {
            ACKED.incrementAndGet();
        }

        @Override
        public void fail(Object id) {
            FAILED.incrementAndGet();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("sentence"));
        }
    }

    public static class Split extends BaseRichBolt {
        private OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            for (String word : input.getString(0).split(" ")) {
                collector.emit(input, new Values(word));
            }
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }
    }

    /** A split bolt whose first {@code slow} sentences take a millisecond each: slow enough to be given a thread. */
    public static class SlowSplit extends Split {
        private final int slow;
        private int seen;

        SlowSplit(int slow) {
            this.slow = slow;
        }

        @Override
        public void execute(Tuple input) {
            if (seen++ < slow) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
            super.execute(input);
        }
    }

    public static class Count extends BaseRichBolt {
        private OutputCollector collector;
        private int task;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.task = context.getThisTaskId();
        }

        @Override
        public void execute(Tuple input) {
            String word = input.getString(0);
            COUNTS.computeIfAbsent(word, k -> new AtomicLong()).incrementAndGet();
            COUNTED_BY.computeIfAbsent(word, k -> ConcurrentHashMap.newKeySet()).add(task);
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    static final int P = Math.max(2, Runtime.getRuntime().availableProcessors());

    @BeforeEach
    void reset() {
        ACKED.set(0);
        FAILED.set(0);
        COUNTS.clear();
        COUNTED_BY.clear();
    }

    /** P spouts, splits and counts: 3P executors on P cores or fewer, so they run as P slices. */
    private static StormTopology wordCount(int sentences, Split split) {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("sentences", new Sentences(sentences), P);
        b.setBolt("split", split, P).shuffleGrouping("sentences");
        b.setBolt("count", new Count(), P).fieldsGrouping("split", new Fields("word"));
        return b.createTopology();
    }

    /** Queues of 16 tuples in batches of 4, so slices fill each other's queues all the time. */
    private static Config tinyQueues(int maxSpoutPending) {
        Config conf = new Config();
        conf.setMaxSpoutPending(maxSpoutPending);
        conf.put(MicroburstConfig.EXECUTOR_QUEUE_SIZE, 16);
        conf.put(MicroburstConfig.PRODUCER_BATCH_SIZE, 4);
        return conf;
    }

    private static Set<String> threads(String topology) {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
            .filter(n -> n.startsWith("microburst-" + topology + "-")).collect(Collectors.toSet());
    }

    /** Waits up to a minute for every sentence to be acked or failed, then checks that all were acked and counted. */
    private static void awaitAllCounted(int sentences) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (ACKED.get() + FAILED.get() < sentences && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(sentences, ACKED.get());
        assertEquals(0, FAILED.get());
        assertEquals((long) sentences * WORDS, COUNTS.values().stream().mapToLong(AtomicLong::get).sum());
    }

    @Test
    void slicesCountEveryWordOnceWithTinyQueuesBetweenThem() throws Exception {
        int sentences = 20_000 * P;
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("slices", tinyQueues(2000), wordCount(sentences, new Split()));
            Set<String> threads = threads("slices");
            assertEquals(P, threads.size(), "one thread per slice: " + threads);
            assertTrue(threads.stream().allMatch(n -> n.contains("count+sentences+split")), threads.toString());
            assertEquals(3 * P, cluster.getTopologyInfoByName("slices").get_executors_size(),
                "Storm's executor count is unchanged");
            awaitAllCounted(sentences);
        }
        COUNTED_BY.forEach((word, tasks) -> assertEquals(1, tasks.size(), word + " counted by tasks " + tasks));
    }

    @Test
    void aSlowTaskLeavesItsSliceAndTheLoopItClosesNeverBlocks() throws Exception {
        int sentences = 5_000 * P;
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("slices-slow", tinyQueues(500), wordCount(sentences, new SlowSplit(100)));
            awaitAllCounted(sentences);
            assertTrue(threads("slices-slow").stream().anyMatch(n -> n.startsWith("microburst-slices-slow-split[")),
                "a slow split task got a thread of its own: " + threads("slices-slow"));
        }
    }
}
