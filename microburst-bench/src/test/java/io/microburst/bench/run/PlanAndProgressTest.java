package io.microburst.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.bench.result.RunResult;
import io.microburst.bench.result.RunStatus;
import io.microburst.bench.runtime.RuntimeId;
import io.microburst.bench.workload.Workload;
import io.microburst.bench.workload.WorkloadCatalog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanAndProgressTest {
    private final List<Workload> workloads = WorkloadCatalog.select(List.of("const-null", "rollingsort"));

    @Test
    void runtimesAreInterleavedWithinEachRound() {
        List<RunSpec> plan = BenchPlan.of(workloads, List.of(RuntimeId.MICROBURST, RuntimeId.STORM), 2);
        assertEquals(8, plan.size());
        assertEquals(List.of("const-null.microburst.r1", "const-null.storm.r1", "rollingsort.microburst.r1",
            "rollingsort.storm.r1", "const-null.microburst.r2", "const-null.storm.r2", "rollingsort.microburst.r2",
            "rollingsort.storm.r2"), plan.stream().map(RunSpec::key).toList());
    }

    @Test
    void estimateStartsFromGuessesAndLearnsFromObservedRuns() {
        EtaEstimator eta = new EtaEstimator(30);
        assertEquals(30 + EtaEstimator.guessOverhead(RuntimeId.STORM), eta.expectedSeconds(RuntimeId.STORM));
        eta.observe(RuntimeId.STORM, 40);
        eta.observe(RuntimeId.STORM, 50);
        assertEquals(45, eta.expectedSeconds(RuntimeId.STORM), 1e-9);
        List<RunSpec> plan = BenchPlan.of(workloads, List.of(RuntimeId.STORM, RuntimeId.CEILING_SPSC), 1);
        // const-null has both ceilings; rollingsort too: 2 Storm runs and 2 ceiling runs
        assertEquals(2 * 45 + 2 * (30 + EtaEstimator.guessOverhead(RuntimeId.CEILING_SPSC)), eta.remainingSeconds(plan), 1e-9);
    }

    @Test
    void plainProgressPrintsOneLinePerEventWithTimeLeft() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        RunSpec spec = new RunSpec(workloads.get(0), RuntimeId.STORM, 2);
        try (Progress progress = new Progress(out, false)) {
            progress.started(spec, 3, 10, 125);
            progress.finished(RunResult.notMeasured("const-null", "const-null", 1, "storm", 2, RunStatus.FAILED, "boom",
                "tuples/s"));
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("[3/10] const-null on storm, round 2 (about 2m05s left)"), text);
        assertTrue(text.contains("FAILED: boom"), text);
        assertTrue(!text.contains("\033"), "no ANSI codes off a terminal");
    }

    @Test
    void durationsReadNaturally() {
        assertEquals("12s", Progress.duration(12.4));
        assertEquals("4m05s", Progress.duration(245));
        assertEquals("1h02m", Progress.duration(3720));
    }
}
