package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.Config;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A task that fails again and again without doing any work is in a crash loop: its first replacement is immediate, then
 * it is backed off (the base, doubled each time), each wait reported as a crash loop naming the topology and component;
 * the tuples routed to it wait rather than fail (so nothing is replayed but the tuples it threw on), and its threads
 * park rather than spin while it waits.
 */
class CrashLoopTest {
    static final AtomicLong PREPARES = new AtomicLong();
    static final AtomicLong THROWS = new AtomicLong();
    static final AtomicLong OPENS = new AtomicLong();
    static final String SUPERVISOR = "io.microburst.runtime.topology.Supervisor";

    /** Throws in prepare ("prepare") or on every tuple ("execute"). */
    public static class BrokenBolt extends BaseBasicBolt {
        private final String where;

        public BrokenBolt(String where) {
            this.where = where;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context) {
            PREPARES.incrementAndGet();
            if (where.equals("prepare")) {
                THROWS.incrementAndGet();
                throw new IllegalStateException("cannot prepare (expected by the test)");
            }
        }

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            THROWS.incrementAndGet();
            throw new IllegalStateException("fails on every tuple (expected by the test)");
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Throws in every open. */
    public static class BrokenSpout extends BaseRichSpout {
        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            OPENS.incrementAndGet();
            throw new IllegalStateException("cannot open (expected by the test)");
        }

        @Override
        public void nextTuple() {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id", "attempt"));
        }
    }

    @ParameterizedTest(name = "a bolt failing in {0}, fusion {1}")
    @CsvSource({"prepare, true", "prepare, false", "execute, true", "execute, false"})
    void aBoltInACrashLoopIsBackedOffReportedAndItsTuplesWait(String where, boolean fusion) throws Exception {
        PREPARES.set(0);
        THROWS.set(0);
        String run = "crash-" + where + "-" + fusion;
        ReplayStormTest.RUNS.remove(run);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ReplayStormTest.IdSpout(run, 100_000));
        b.setBolt("bolt", new BrokenBolt(where)).shuffleGrouping("spout");
        Config conf = new Config();
        conf.put(MicroburstConfig.FUSION, fusion);
        conf.put(MicroburstConfig.TASK_RESTART_BACKOFF_MS, 50);
        ReplayStormTest.Counts spout = ReplayStormTest.counts(run);
        try (LogCapture log = new LogCapture(SUPERVISOR); MicroburstCluster cluster = new MicroburstCluster()) {
            long start = System.nanoTime();
            cluster.submitTopology(run, conf, b.createTopology());
            ReplayingSpout.await("the fourth backoff", 30, () -> crashLoops(log, run).size() >= 4);
            double waitedMs = (System.nanoTime() - start) / 1e6;
            long cpuBefore = cpuOf(run);
            long windowStart = System.nanoTime();
            Thread.sleep(300); // a window of the 400 ms backoff, to measure the threads' CPU time in
            double cpuShare = (double) (cpuOf(run) - cpuBefore) / (System.nanoTime() - windowStart);

            List<String> loops = crashLoops(log, run);
            for (int i = 0; i < 4; i++) {
                String m = loops.get(i);
                assertTrue(m.contains("component 'bolt'") && m.contains("topology " + run)
                    && m.contains("failed " + (i + 2) + " times in a row") && m.contains("backing off for " + (50 << i)
                    + " ms"), "crash loop report " + (i + 2) + ": " + m);
            }
            // an immediate first replacement, then 50, 100, 200 ms... so failures grow as the log of the time
            long bound = 2 + (long) Math.ceil(Math.log(waitedMs / 50 + 1) / Math.log(2)) + 1;
            assertTrue(THROWS.get() <= bound, THROWS + " failures in " + waitedMs + " ms");
            List<ErrorInfo> errors = cluster.getTopologyInfoByName(run).get_errors().get("bolt");
            assertTrue(errors.stream().anyMatch(e -> e.get_error().contains("crash loop")
                && !e.get_error().contains("\tat ")), "the crash loop among the bolt's errors: " + errors);
            if (where.equals("execute")) {
                assertTrue(PREPARES.get() <= THROWS.get() + 1, PREPARES + " prepares: one per failure, and the first");
                // the spout may not have heard of the last failures yet (it waits for room in the bolt's full queue)
                assertTrue(spout.fails.get() <= THROWS.get(), "fails " + spout.fails + ": only the tuples thrown on");
                assertTrue(fusion || spout.emits.get() > THROWS.get() + 1, "emits " + spout.emits + ": tuples wait");
            } else {
                assertEquals(0, spout.fails.get(), "fails: no tuple reached an instance, so none failed");
            }
            // a spinning thread takes a whole core when it can; parked ones (and a producer waiting for room in a full
            // queue, in parks of up to 100 us) take a few percent
            assertTrue(cpuShare < 0.5, "the topology's threads used " + cpuShare + " of a core while backing off");
        }
    }

    @ParameterizedTest(name = "fusion {0}")
    @CsvSource({"true", "false"})
    void aSpoutThatCannotOpenIsBackedOffAndReported(boolean fusion) throws Exception {
        OPENS.set(0);
        String run = "crash-open-" + fusion;
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new BrokenSpout());
        b.setBolt("bolt", new BrokenBolt("execute")).shuffleGrouping("spout");
        Config conf = new Config();
        conf.put(MicroburstConfig.FUSION, fusion);
        conf.put(MicroburstConfig.TASK_RESTART_BACKOFF_MS, 50);
        try (LogCapture log = new LogCapture(SUPERVISOR); MicroburstCluster cluster = new MicroburstCluster()) {
            long start = System.nanoTime();
            cluster.submitTopology(run, conf, b.createTopology());
            ReplayingSpout.await("the third backoff", 30, () -> crashLoops(log, run).size() >= 3);
            double waitedMs = (System.nanoTime() - start) / 1e6;
            List<String> loops = crashLoops(log, run);
            assertTrue(loops.get(2).contains("component 'spout'") && loops.get(2).contains("backing off for 200 ms"),
                loops.get(2));
            long bound = 2 + (long) Math.ceil(Math.log(waitedMs / 50 + 1) / Math.log(2)) + 1;
            assertTrue(OPENS.get() <= bound, OPENS + " opens in " + waitedMs + " ms");
        }
    }

    private static List<String> crashLoops(LogCapture log, String run) {
        return log.messages.stream().filter(m -> m.contains("crash loop") && m.contains("topology " + run + " "))
            .toList();
    }

    /** CPU time of the topology's threads so far, in nanoseconds. */
    private static long cpuOf(String run) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("microburst-" + run + "-")) {
                total += Math.max(0, mx.getThreadCpuTime(t.getId()));
            }
        }
        return total;
    }
}
