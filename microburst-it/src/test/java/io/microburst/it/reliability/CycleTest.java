package io.microburst.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.storm.Config;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * STORM-3637: a two-bolt loop under backpressure must not deadlock. An unthrottled spout feeds "fast", which sends
 * every tuple round the loop through "slow" and back, so both queues fill; the topology must keep completing trees.
 */
// try-with-resources is used only to stop the topology, whatever happens.
@SuppressWarnings("try")
class CycleTest extends ReliabilityTestBase {
    private static final QueueLimits LIMITS = new QueueLimits(64, 8);
    private static final Duration WINDOW = Duration.ofSeconds(2);
    private static final Duration STALL_LIMIT = Duration.ofSeconds(30);

    @Test
    void aTwoBoltLoopWithOneSlowSideKeepsMakingProgress() throws Exception {
        loopKeepsMakingProgress(5);
    }

    @Test
    @EnabledIfSystemProperty(named = "microburst.long", matches = "true")
    void aTwoBoltLoopWithOneSlowSideKeepsMakingProgressForMinutes() throws Exception {
        loopKeepsMakingProgress(90);
    }

    private void loopKeepsMakingProgress(int windows) throws Exception {
        RunRecord run = Runs.start(0);
        try {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("spout", SequenceSpout.endless(run.id()), 1);
            builder.setBolt("fast", new LoopBolt(run.id(), 6, 0), 1).shuffleGrouping("spout").shuffleGrouping("slow");
            builder.setBolt("slow", new LoopBolt(run.id(), 6, 50_000), 1).shuffleGrouping("fast");
            Config conf = conf(600);
            LIMITS.applyTo(conf);
            List<Long> completedPerWindow = new ArrayList<>();
            try (RunningTopology topology = RunningTopology.submit(cluster, "cycle", conf, builder.createTopology())) {
                Await.until("the first tree to complete", Duration.ofSeconds(60), () -> run.acked() > 0);
                for (int window = 0; window < windows; window++) {
                    long before = run.acked();
                    Thread.sleep(WINDOW.toMillis());
                    // A window with no completed tree is only a stall if nothing completes for much longer.
                    Await.until("the loop to complete another tree (deadlock?)", STALL_LIMIT, () -> run.acked() > before,
                            () -> "acked " + run.acked() + ", slow received " + run.count("received:slow")
                                    + ", fast received " + run.count("received:fast"));
                    completedPerWindow.add(run.acked() - before);
                }
            }
            figure("two-bolt loop, slow side 50 us/tuple (" + LIMITS + ")", figures(
                    "trees completed per " + WINDOW.toSeconds() + " s window", completedPerWindow.size() <= 20 ? completedPerWindow
                            : "min " + Collections.min(completedPerWindow) + ", max " + Collections.max(completedPerWindow)
                            + " over " + completedPerWindow.size() + " windows",
                    "fails", run.failed(), "fast received", run.count("received:fast"),
                    "slow received", run.count("received:slow"), "violations", run.violations()));
            assertEquals(windows, completedPerWindow.size());
            assertEquals(0, run.failed());
            assertEquals(List.of(), run.violations());
        } finally {
            Runs.end(run);
        }
    }
}
