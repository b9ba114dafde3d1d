package io.microburst.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.storm.Config;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * topology.message.timeout.secs: a dropped tuple fails between T and 2T after its emit, healthy ones never fail,
 * resetTimeout keeps a tuple alive, and topology.enable.message.timeouts=false turns timeouts off.
 */
// try-with-resources is used only to stop the topology, whatever happens.
@SuppressWarnings("try")
class MessageTimeoutTest extends ReliabilityTestBase {
    private static final int TIMEOUT_SECS = 2;
    private static final long T_MILLIS = TIMEOUT_SECS * 1000L;
    /**
     * Timeouts are checked by a timer; on a busy shared machine its tick may come late (so a fail seems later)
     * and the tick before it may also have been late (so the next interval seems short). Allowed either way.
     */
    private static final long TIMER_SLACK_MILLIS = 500;

    @Test
    void tenPercentDroppedTuplesEachFailBetweenTAnd2TAndNoHealthyTupleFails() throws Exception {
        int total = count("microburst.it.reliability.timeout.tuples", 2_000);
        RunRecord run = Runs.start(total);
        try {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("spout", new SequenceSpout(run.id(), total, false), 1);
            builder.setBolt("dropper", new VerdictBolt(run.id(), VerdictBolt.Verdict.DROP, 10, 3), 2)
                    .shuffleGrouping("spout");
            try (RunningTopology topology = RunningTopology.submit(cluster, "timeout", conf(TIMEOUT_SECS),
                    builder.createTopology())) {
                Await.until("every tuple to be acked or failed", Duration.ofSeconds(4 * TIMEOUT_SECS + 60),
                        () -> run.acked() + run.failed() >= total,
                        () -> "acked " + run.acked() + " failed " + run.failed());
            }
            SortedSet<Long> dropped = new TreeSet<>();
            for (long seq = 0; seq < total; seq++) {
                if (VerdictBolt.selected(seq, 10, 3)) {
                    dropped.add(seq);
                }
            }
            long minDelay = Long.MAX_VALUE;
            long maxDelay = 0;
            List<String> outOfWindow = new ArrayList<>();
            for (long seq : run.failedIds()) {
                long delay = run.failDelayMillis(seq);
                minDelay = Math.min(minDelay, delay);
                maxDelay = Math.max(maxDelay, delay);
                if (delay < T_MILLIS - TIMER_SLACK_MILLIS || delay > 2 * T_MILLIS + TIMER_SLACK_MILLIS) {
                    outOfWindow.add(seq + " failed after " + delay + " ms");
                }
            }
            SortedSet<Long> healthyFailed = new TreeSet<>(run.failedIds());
            healthyFailed.removeAll(dropped);
            figure("10% dropped, T = " + TIMEOUT_SECS + " s", figures("tuples", total, "dropped", dropped.size(),
                    "acks", run.acked(), "fails", run.failed(), "healthy fails", healthyFailed.size(),
                    "fail delay min ms", minDelay, "fail delay max ms", maxDelay, "violations", run.violations()));
            assertEquals(dropped, run.failedIds(), "exactly the dropped tuples fail");
            assertEquals(total - dropped.size(), run.acked(), "every healthy tuple is acked");
            assertEquals(dropped.size(), run.failed(), "each dropped tuple fails once");
            assertTrue(outOfWindow.isEmpty(), "fails outside [T, 2T]: " + first(outOfWindow));
            assertEquals(List.of(), run.violations());
        } finally {
            Runs.end(run);
        }
    }

    @Test
    void aTupleKeptAliveWithResetTimeoutSurvives3T() throws Exception {
        RunRecord run = Runs.start(2);
        long holdMillis = 3 * T_MILLIS;
        try {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("spout", new ScriptedSpout(run.id(), true), 1);
            builder.setBolt("keeper", new KeepAliveBolt(run.id(), holdMillis), 1).shuffleGrouping("spout");
            try (RunningTopology topology = RunningTopology.submit(cluster, "reset", conf(TIMEOUT_SECS),
                    builder.createTopology())) {
                run.feed(0, 1);
                Await.until("the kept tuple to be acked and the other to fail", Duration.ofSeconds(60),
                        () -> run.acked() + run.failed() >= 2,
                        () -> "acked " + run.ackedIds() + " failed " + run.failedIds());
            }
            figure("resetTimeout, T = " + TIMEOUT_SECS + " s", figures("acked", run.ackedIds(),
                    "failed", run.failedIds(), "kept alive ms", run.ackDelayMillis(0),
                    "unreset fail ms", run.failDelayMillis(1), "resets", run.count("resets"),
                    "violations", run.violations()));
            assertEquals(ids(0L), run.ackedIds(), "the tuple kept alive is acked");
            assertEquals(ids(1L), run.failedIds(), "the tuple held without resets times out");
            assertTrue(run.ackDelayMillis(0) >= holdMillis, "acked only after being held 3T");
            assertEquals(List.of(), run.violations());
        } finally {
            Runs.end(run);
        }
    }

    @Test
    void withTimeoutsDisabledADroppedTupleNeverFails() throws Exception {
        int total = 200;
        RunRecord run = Runs.start(total);
        try {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("spout", new SequenceSpout(run.id(), total, false), 1);
            builder.setBolt("dropper", new VerdictBolt(run.id(), VerdictBolt.Verdict.DROP, 10, 3), 1)
                    .shuffleGrouping("spout");
            Config conf = conf(1);
            conf.put(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, false);
            long pendingAfter3T;
            long failsAfter3T;
            try (RunningTopology topology = RunningTopology.submit(cluster, "notimeout", conf, builder.createTopology())) {
                Await.until("the healthy tuples to be acked", Duration.ofSeconds(60), () -> run.acked() >= total * 9 / 10);
                // Absence cannot be awaited: give a 1 s timeout three times over to fire, wrongly.
                Thread.sleep(3_000);
                pendingAfter3T = run.pending();
                failsAfter3T = run.failed();
            }
            figure("timeouts disabled, T = 1 s", figures("acks", run.acked(), "fails", failsAfter3T,
                    "still pending after 3T", pendingAfter3T, "violations", run.violations()));
            assertEquals(0, failsAfter3T, "no tuple fails when timeouts are disabled");
            assertEquals(total / 10, pendingAfter3T, "the dropped tuples stay pending");
            assertEquals(List.of(), run.violations());
        } finally {
            Runs.end(run);
        }
    }

    private static SortedSet<Long> ids(Long... ids) {
        return new TreeSet<>(List.of(ids));
    }

    private static String first(List<String> items) {
        return items.size() <= 10 ? items.toString() : items.subList(0, 10) + " and " + (items.size() - 10) + " more";
    }
}
