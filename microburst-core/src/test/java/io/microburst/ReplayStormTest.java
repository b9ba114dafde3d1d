package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.storm.Config;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * No replay storms: a bolt that throws on 0.5% of its tuples costs those tuples' trees and nothing more. While its task
 * is replaced, tuples for it wait; every id is acked exactly once; the spout replays only the tuples that really failed
 * (the ones being executed when the bolt threw); and the bolt is prepared once per throw, plus once per task. Default
 * restart configuration, in each layout: fused into the spout's thread, queued between threads, and several tasks on
 * parallel executors.
 */
class ReplayStormTest {
    static final Map<String, Counts> RUNS = new ConcurrentHashMap<>();

    /** What one run's user code saw; kept statically, so it survives the instances the runtime replaces. */
    static final class Counts {
        final AtomicLong emits = new AtomicLong();
        final AtomicLong fails = new AtomicLong();
        final AtomicLong duplicateAcks = new AtomicLong();
        final AtomicLong throwsSeen = new AtomicLong();
        final AtomicLong prepares = new AtomicLong();
        final Set<Integer> acked = ConcurrentHashMap.newKeySet();
        final Set<Integer> thrownOn = ConcurrentHashMap.newKeySet();
    }

    static Counts counts(String run) {
        return RUNS.computeIfAbsent(run, k -> new Counts());
    }

    /** Emits the ids 0 to count - 1 as (id, attempt), the id as message id, and replays each id that fails. */
    public static class IdSpout extends BaseRichSpout {
        private final String run;
        private final int count;
        private transient SpoutOutputCollector collector;
        private transient Queue<Integer> replays;
        private transient Map<Integer, Integer> attempts;
        private transient int next;

        public IdSpout(String run, int count) {
            this.run = run;
            this.count = count;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            this.replays = new ArrayDeque<>();
            this.attempts = new HashMap<>();
        }

        @Override
        public void nextTuple() {
            Integer replay = replays.poll();
            int id;
            int attempt;
            if (replay != null) {
                id = replay;
                attempt = attempts.merge(id, 1, Integer::sum);
            } else if (next < count) {
                id = next++;
                attempt = 0;
            } else {
                return;
            }
            counts(run).emits.incrementAndGet();
            collector.emit(new Values(id, attempt), id);
        }

        @Override
        public void ack(Object msgId) {
            if (!counts(run).acked.add((Integer) msgId)) {
                counts(run).duplicateAcks.incrementAndGet();
            }
        }

        @Override
        public void fail(Object msgId) {
            counts(run).fails.incrementAndGet();
            replays.add((Integer) msgId);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id", "attempt"));
        }
    }

    /**
     * Throws on ids with {@code id % 200 == 7}: in mode "sight" the first time any instance sees the id, in mode
     * "attempt" on the id's first attempt; in mode "never" it does not throw. Passes every id on to the sink.
     */
    public static class ThrowingBolt extends BaseBasicBolt {
        private final String run;
        private final String mode;

        public ThrowingBolt(String run, String mode) {
            this.run = run;
            this.mode = mode;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context) {
            counts(run).prepares.incrementAndGet();
        }

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            int id = input.getInteger(0);
            collector.emit(new Values(id));
            if (id % 200 == 7 && (mode.equals("sight") && counts(run).thrownOn.add(id)
                || mode.equals("attempt") && input.getInteger(1) == 0)) {
                counts(run).throwsSeen.incrementAndGet();
                throw new IllegalStateException("fails on id " + id + " (expected by the test)");
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id"));
        }
    }

    /** Takes every tuple (acked by BaseBasicBolt's contract). */
    public static class Sink extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @ParameterizedTest(name = "{0}, throws on {1}")
    @CsvSource({"fused, sight", "fused, attempt", "queued, sight", "queued, attempt", "parallel, sight",
        "parallel, attempt"})
    void aBoltThrowingOnHalfAPercentCostsOnlyTheTuplesItThrewOn(String layout, String mode) throws Exception {
        int ids = 100_000;
        String run = "storm-" + layout + "-" + mode;
        RUNS.remove(run);
        int boltTasks = runToCompletion(run, layout, mode, ids, 60);
        Counts c = counts(run);
        long expectedThrows = ids / 200;
        assertEquals(ids, c.acked.size(), "ids acked (spout fails " + c.fails + ", emits " + c.emits + ")");
        assertEquals(0, c.duplicateAcks.get(), "ids acked twice");
        assertEquals(expectedThrows, c.throwsSeen.get(), "throws of the bolt");
        assertEquals(c.throwsSeen.get(), c.fails.get(), "fails at the spout: only the tuples the bolt threw on");
        assertEquals(ids + c.fails.get(), c.emits.get(), "emits: every id once, and a replay per fail");
        assertTrue(c.emits.get() <= 1.1 * ids + c.throwsSeen.get(), "emits " + c.emits);
        assertTrue(c.prepares.get() <= c.throwsSeen.get() + boltTasks,
            "prepares " + c.prepares + " for " + c.throwsSeen + " throws and " + boltTasks + " tasks");
    }

    /**
     * Emits the ids not yet acked, as a spout re-reading from its last committed offset; throws right after emitting an
     * id with {@code id % 200 == 7} the first time (after work, so it is replaced at once). Counts the acks and fails it
     * hears of ids it did not emit itself: a new instance must never hear of its predecessor's tuples, as in Storm.
     */
    public static class ThrowingSpout extends BaseRichSpout {
        static final AtomicLong OPENS = new AtomicLong();
        static final AtomicLong FOREIGN = new AtomicLong();
        private final String run;
        private final int count;
        private transient SpoutOutputCollector collector;
        private transient Queue<Integer> toEmit;
        private transient Set<Integer> emitted;

        public ThrowingSpout(String run, int count) {
            this.run = run;
            this.count = count;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            OPENS.incrementAndGet();
            this.collector = collector;
            this.toEmit = new ArrayDeque<>();
            this.emitted = new java.util.HashSet<>();
            for (int i = 0; i < count; i++) {
                if (!counts(run).acked.contains(i)) {
                    toEmit.add(i);
                }
            }
        }

        @Override
        public void nextTuple() {
            Integer id = toEmit.poll();
            if (id != null) {
                emitted.add(id);
                counts(run).emits.incrementAndGet();
                collector.emit(new Values(id, 0), id);
                if (id % 200 == 7 && counts(run).thrownOn.add(id)) {
                    counts(run).throwsSeen.incrementAndGet();
                    throw new IllegalStateException("spout fails after id " + id + " (expected by the test)");
                }
            }
        }

        @Override
        public void ack(Object msgId) {
            heard(msgId);
            counts(run).acked.add((Integer) msgId);
        }

        @Override
        public void fail(Object msgId) {
            heard(msgId);
            counts(run).fails.incrementAndGet();
            toEmit.add((Integer) msgId);
        }

        private void heard(Object msgId) {
            if (!emitted.remove(msgId)) {
                FOREIGN.incrementAndGet();
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id", "attempt"));
        }
    }

    @ParameterizedTest(name = "fusion {0}")
    @CsvSource({"true", "false"})
    void aSpoutThrowingAfterWorkIsReplacedAtOnceAndHearsOnlyOfItsOwnTuples(boolean fusion) throws Exception {
        int ids = 20_000;
        String run = "spout-throws-" + fusion;
        RUNS.remove(run);
        ThrowingSpout.OPENS.set(0);
        ThrowingSpout.FOREIGN.set(0);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ThrowingSpout(run, ids));
        b.setBolt("sink", new Sink()).shuffleGrouping("spout");
        Config conf = new Config();
        conf.put(MicroburstConfig.FUSION, fusion);
        Counts c = counts(run);
        try (LogCapture log = new LogCapture("io.microburst.runtime.topology.Supervisor");
            MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology(run, conf, b.createTopology());
            await(60, () -> c.acked.size() == ids);
            assertEquals(ids, c.acked.size(), "ids acked");
            assertEquals(ids / 200, c.throwsSeen.get(), "throws of the spout");
            assertEquals(c.throwsSeen.get() + 1, ThrowingSpout.OPENS.get(), "opens: the first, and one per throw");
            assertEquals(0, ThrowingSpout.FOREIGN.get(), "acks and fails of tuples another instance emitted");
            assertTrue(log.messages.stream().noneMatch(m -> m.contains("crash loop")), "no crash loop: it did work");
        }
    }

    /**
     * 1,000,000 ids, fused and queued, against the same run without throws, interleaved: at most twice its time, in wall
     * time (best of three, as the machine may be busy) and in the process's CPU time. Prints the figures.
     */
    @Test
    @EnabledIfSystemProperty(named = "microburst.long", matches = "true")
    void aMillionIdsWithThrowsTakeAtMostTwiceTheTimeOfNone() throws Exception {
        int ids = 1_000_000;
        com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        for (String layout : new String[] {"fused", "queued"}) {
            runToCompletion("warmup-" + layout, layout, "never", ids, 300);
            long[] wall = {Long.MAX_VALUE, Long.MAX_VALUE};
            long[] cpu = {Long.MAX_VALUE, Long.MAX_VALUE};
            for (int round = 0; round < 3; round++) {
                for (int throwing = 0; throwing < 2; throwing++) {
                    String run = "million-" + layout + round + (throwing == 1 ? "-throws" : "");
                    long cpuStart = os.getProcessCpuTime();
                    long start = System.nanoTime();
                    runToCompletion(run, layout, throwing == 1 ? "sight" : "never", ids, 300);
                    long took = System.nanoTime() - start;
                    long cpuTook = os.getProcessCpuTime() - cpuStart;
                    wall[throwing] = Math.min(wall[throwing], took);
                    cpu[throwing] = Math.min(cpu[throwing], cpuTook);
                    Counts c = counts(run);
                    System.out.printf("replay storms, %s round %d: %d ids, %d throws, %d fails, %d emits, %d prepares, "
                        + "%.2f s, %.2f s CPU%n", layout, round + 1, ids, c.throwsSeen.get(), c.fails.get(),
                        c.emits.get(), c.prepares.get(), took / 1e9, cpuTook / 1e9);
                    assertEquals(ids, c.acked.size());
                    assertEquals(c.throwsSeen.get(), c.fails.get());
                }
            }
            System.out.printf("replay storms, %s: best of 3 without throws %.2f s (%.2f s CPU), with throws %.2f s "
                + "(%.2f s CPU): %.2fx wall, %.2fx CPU%n", layout, wall[0] / 1e9, cpu[0] / 1e9, wall[1] / 1e9,
                cpu[1] / 1e9, (double) wall[1] / wall[0], (double) cpu[1] / cpu[0]);
            assertTrue(wall[1] <= 2 * wall[0], layout + ": " + wall[1] / 1e6 + " ms against " + wall[0] / 1e6);
            assertTrue(cpu[1] <= 2 * cpu[0], layout + ": " + cpu[1] / 1e6 + " ms CPU against " + cpu[0] / 1e6);
        }
    }

    /**
     * Runs the topology until every id is acked, or a storm shows (fails far past the throws), or the time is up;
     * returns the bolt's task count.
     */
    static int runToCompletion(String run, String layout, String mode, int ids, int seconds) throws Exception {
        RUNS.remove(run);
        TopologyBuilder b = new TopologyBuilder();
        Config conf = new Config();
        b.setSpout("spout", new IdSpout(run, ids));
        int boltTasks = 1;
        if (layout.equals("parallel")) {
            boltTasks = 4;
            b.setBolt("bolt", new ThrowingBolt(run, mode), 2).setNumTasks(boltTasks).shuffleGrouping("spout");
            b.setBolt("sink", new Sink(), 2).shuffleGrouping("bolt");
        } else {
            b.setBolt("bolt", new ThrowingBolt(run, mode)).shuffleGrouping("spout");
            b.setBolt("sink", new Sink()).shuffleGrouping("bolt");
            conf.put(MicroburstConfig.FUSION, layout.equals("fused"));
        }
        Counts c = counts(run);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology(run, conf, b.createTopology());
            await(seconds, () -> c.acked.size() == ids || c.fails.get() > 10L * ids / 200 + 1_000);
        }
        return boltTasks;
    }

    /** Waits up to {@code seconds} for the condition, polling; returns when it holds or the time is up. */
    static void await(int seconds, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!condition.getAsBoolean() && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
    }
}
