package io.microburst.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.microburst.MicroburstCluster;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * Kill and shutdown: kill with a wait deactivates the spouts and lets in-flight trees complete, every spout and
 * bolt gets close()/cleanup(), and repeated submit/kill leaves no threads behind.
 */
// try-with-resources is used only to stop the topology, whatever happens.
@SuppressWarnings("try")
class ShutdownTest extends ReliabilityTestBase {
    private static final int KILL_WAIT_SECS = 5;

    @Test
    void killWithWaitLetsInFlightTreesCompleteAndClosesEveryComponent() throws Exception {
        RunRecord run = Runs.start(0);
        try {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("spout", SequenceSpout.endless(run.id()), 1);
            builder.setBolt("slow", new SlowBolt(run.id(), 2_000_000, true), 2).shuffleGrouping("spout");
            builder.setBolt("sink", new AckBolt(run.id()), 1).shuffleGrouping("slow");
            Config conf = conf(120);
            conf.setMaxSpoutPending(200);
            long pendingAtKill;
            RunningTopology topology = RunningTopology.submit(cluster, "killwait", conf, builder.createTopology());
            try {
                Await.until("300 trees to complete", Duration.ofSeconds(60), () -> run.acked() >= 300);
                pendingAtKill = run.pending();
                topology.kill(KILL_WAIT_SECS);
                topology.awaitRemoved(Duration.ofSeconds(KILL_WAIT_SECS + 60));
            } finally {
                topology.close();
            }
            Await.until("close() and cleanup() of every task", Duration.ofSeconds(30),
                    () -> run.count("close") == 1 && run.count("cleanup:slow") == 2 && run.count("cleanup:sink") == 1,
                    () -> "close " + run.count("close") + ", cleanup:slow " + run.count("cleanup:slow")
                            + ", cleanup:sink " + run.count("cleanup:sink"));
            figure("kill with wait " + KILL_WAIT_SECS + " s", figures("in flight at kill", pendingAtKill,
                    "emitted", run.emitted(), "acks", run.acked(), "fails", run.failed(),
                    "pending at close", run.count("pending at close"), "deactivate calls", run.count("deactivate"),
                    "close calls", run.count("close"), "cleanup calls", run.count("cleanup:slow") + run.count("cleanup:sink"),
                    "violations", run.violations()));
            assertTrue(pendingAtKill > 0, "the kill found trees in flight");
            assertEquals(0, run.failed(), "no in-flight tree fails during the wait");
            assertEquals(run.emitted(), run.acked(), "every emitted tree completed within the wait");
            assertEquals(0, run.count("pending at close"), "the spout had nothing pending when closed");
            assertEquals(1, run.count("deactivate"), "the spout was deactivated once");
            assertEquals(List.of(), run.violations(), "no nextTuple after deactivate, acks on the spout thread");
        } finally {
            Runs.end(run);
        }
    }

    @Test
    void fiveHundredSubmitKillCyclesLeaveNoGrowthInThreads() throws Exception {
        assumeTrue(kind == ClusterKind.MICROBURST, "Storm's LocalCluster takes seconds per cycle");
        int cycles = count("microburst.it.reliability.cycles", 500);
        RunRecord run = Runs.start(0);
        try {
            cycle(run, 5);
            int baseline = settledThreadCount(Integer.MAX_VALUE);
            int peak = 0;
            long started = System.nanoTime();
            for (int i = 0; i < cycles; i++) {
                long acked = run.acked();
                try (RunningTopology topology = RunningTopology.submit(cluster, "cycle", conf(30), tinyTopology(run))) {
                    Await.until("cycle " + i + " to complete a tree", Duration.ofSeconds(30), () -> run.acked() > acked);
                    peak = Math.max(peak, liveThreads());
                }
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            int after = settledThreadCount(baseline + 2);
            figure(cycles + " submit/kill cycles", figures("threads before", baseline, "peak", peak, "after", after,
                    "seconds", seconds, "trees acked", run.acked(), "fails", run.failed(), "violations", run.violations()));
            assertTrue(after <= baseline + 2, "threads grew from " + baseline + " to " + after + ": " + threadNames());
            assertEquals(List.of(), run.violations());
        } finally {
            Runs.end(run);
        }
    }

    /** STORM-2336, STORM-3554: once the cluster is closed, no thread of it may keep the JVM alive. */
    @Test
    void aClosedClusterLeavesNoNonDaemonThreads() throws Exception {
        assumeTrue(kind == ClusterKind.MICROBURST, "Storm's LocalCluster is known to leave non-daemon threads");
        Set<Thread> before = nonDaemonThreads();
        RunRecord run = Runs.start(0);
        ILocalCluster own = new MicroburstCluster();
        try {
            try (RunningTopology topology = RunningTopology.submit(own, "exit", conf(30), tinyTopology(run))) {
                Await.until("a tree to complete", Duration.ofSeconds(30), () -> run.acked() > 0);
            }
        } finally {
            own.close();
            Runs.end(run);
        }
        boolean clean = Await.reached(Duration.ofSeconds(10), () -> {
            Set<Thread> left = nonDaemonThreads();
            left.removeAll(before);
            return left.isEmpty();
        });
        Set<Thread> left = nonDaemonThreads();
        left.removeAll(before);
        figure("closed cluster", figures("non-daemon threads left", left.stream().map(Thread::getName).toList()));
        assertTrue(clean, "non-daemon threads left after close: " + left.stream().map(Thread::getName).toList());
    }

    private static void cycle(RunRecord run, int times) throws Exception {
        for (int i = 0; i < times; i++) {
            long acked = run.acked();
            try (RunningTopology topology = RunningTopology.submit(cluster, "warmup", conf(30), tinyTopology(run))) {
                Await.until("a warm-up tree to complete", Duration.ofSeconds(30), () -> run.acked() > acked);
            }
        }
    }

    private static org.apache.storm.generated.StormTopology tinyTopology(RunRecord run) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", SequenceSpout.endless(run.id()), 1);
        // Two relay tasks behind a shuffle, so the topology runs on several threads and queues, not one fused chain.
        builder.setBolt("relay", new RelayBolt(run.id(), false, SequenceSpout.SEQ), 2).shuffleGrouping("spout");
        builder.setBolt("sink", new CountingAckBolt(run.id()), 1).shuffleGrouping("relay");
        return builder.createTopology();
    }

    /** The live thread count once it has stopped falling (or reached the target), waiting at most 10 s. */
    private static int settledThreadCount(int target) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        int last = liveThreads();
        while (System.nanoTime() < deadline) {
            Thread.sleep(200);
            int now = liveThreads();
            if (now <= target || (now == last && target == Integer.MAX_VALUE)) {
                return now;
            }
            last = now;
        }
        return liveThreads();
    }

    /** Every live thread of the JVM, whatever its thread group. */
    private static int liveThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).count();
    }

    private static Set<Thread> nonDaemonThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !t.isDaemon())
                .collect(Collectors.toSet());
    }

    private static String threadNames() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName).sorted().toList().toString();
    }
}
