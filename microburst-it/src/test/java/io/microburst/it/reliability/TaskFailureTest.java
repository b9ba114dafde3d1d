package io.microburst.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.microburst.MicroburstConfig;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.storm.Config;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * When a task is replaced after an exception, the tuples it held fail back to their spouts at once (well before the
 * message timeout), and the replacement task carries on.
 */
// try-with-resources is used only to stop the topology, whatever happens.
@SuppressWarnings("try")
class TaskFailureTest extends ReliabilityTestBase {
    private static final int TIMEOUT_SECS = 120;

    @Test
    void tuplesHeldByATaskThatThrowsFailBackToTheSpoutAndTheReplacementWorks() throws Exception {
        assumeTrue(kind == ClusterKind.MICROBURST,
                "Storm restarts the worker and lets held tuples time out; failing them at once is Microburst's promise");
        RunRecord run = Runs.start(200);
        try {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("spout", new ScriptedSpout(run.id(), true), 1);
            builder.setBolt("holder", new HoldThenThrowBolt(run.id(), 5), 1).shuffleGrouping("spout");
            Config conf = conf(TIMEOUT_SECS);
            conf.put(MicroburstConfig.TASK_RESTART_BACKOFF_MS, 100);
            long failedWithinMs;
            try (RunningTopology topology = RunningTopology.submit(cluster, "taskfailure", conf, builder.createTopology())) {
                run.feed(0, 1, 2, 3, 4, 5);
                long fedAt = System.nanoTime();
                Await.until("the six tuples of the failed task to fail", Duration.ofSeconds(TIMEOUT_SECS / 4),
                        () -> run.failed() >= 6, () -> "failed " + run.failedIds() + ", acked " + run.ackedIds());
                failedWithinMs = (System.nanoTime() - fedAt) / 1_000_000;
                Await.until("the replacement task to be prepared", Duration.ofSeconds(30),
                        () -> run.count("prepare:holder") >= 2);
                run.feed(100, 101);
                Await.until("the replacement task to ack new tuples", Duration.ofSeconds(30),
                        () -> run.ackedIds().containsAll(List.of(100L, 101L)),
                        () -> "acked " + run.ackedIds() + ", failed " + run.failedIds() + ", emitted " + run.emitted()
                                + ", holder prepares " + run.count("prepare:holder") + ", received "
                                + run.count("received:holder") + ", spout opens " + run.count("open:spout"));
            }
            figure("task replaced after an exception", figures("failed", run.failedIds(), "failed within ms",
                    failedWithinMs, "acked", run.ackedIds(), "prepare calls", run.count("prepare:holder"), "spout opens", run.count("open:spout"),
                    "violations", run.violations()));
            assertEquals(new TreeSet<>(Set.of(0L, 1L, 2L, 3L, 4L, 5L)), run.failedIds());
            assertEquals(new TreeSet<>(Set.of(100L, 101L)), run.ackedIds());
            assertEquals(2, run.count("prepare:holder"), "one task instance replaced the one that threw");
            assertEquals(List.of(), run.violations());
        } finally {
            Runs.end(run);
        }
    }
}
