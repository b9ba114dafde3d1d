package io.microburst.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.bench.result.RunResult;
import io.microburst.bench.result.RunStatus;
import io.microburst.bench.runtime.RuntimeId;
import io.microburst.bench.workload.Workload;
import io.microburst.bench.workload.WorkloadCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Measures the ceilings in this JVM: the harness end to end, without a cluster. Asserts what was measured, never how fast. */
class MeasurementTest {
    private static RunResult measure(String workload, RuntimeId runtime, List<RunResult> reported) {
        Workload w = WorkloadCatalog.byName(workload).orElseThrow();
        return new Measurement(w, runtime, 1, Duration.ZERO, Duration.ofMillis(300), Duration.ofSeconds(10))
            .run(reported::add);
    }

    @Test
    void spscCeilingDeliversTuplesAndReportsResources() {
        List<RunResult> reported = new ArrayList<>();
        RunResult r = measure("const-id-null", RuntimeId.CEILING_SPSC, reported);
        assertEquals(List.of(r), reported, "reported exactly once, before shutdown");
        assertEquals(RunStatus.OK, r.status(), r.error());
        assertTrue(r.delivered() > 0);
        assertEquals(r.delivered() / r.windowSeconds(), r.throughput(), 1e-6);
        assertTrue(r.startupMillis() >= 0);
        assertTrue(r.threads() >= 2);
        assertNull(r.latency());
    }

    @Test
    void latencyWorkloadRecordsEndToEndLatency() {
        RunResult r = measure("latency-1-per-ms", RuntimeId.CEILING_SPSC, new ArrayList<>());
        assertEquals(RunStatus.OK, r.status(), r.error());
        assertNotNull(r.latency());
        assertEquals("end-to-end", r.latency().kind());
        assertTrue(r.latency().count() > 0);
        assertTrue(r.latency().p50() <= r.latency().p99() && r.latency().p99() <= r.latency().max());
        assertTrue(r.delivered() < 10_000, "paced at one tuple per millisecond, not flat out: " + r.delivered());
    }

    @Test
    void aRuntimeWithoutTheWorkloadIsSkippedWithoutRunning() {
        List<RunResult> reported = new ArrayList<>();
        RunResult r = measure("const-null-ack", RuntimeId.CEILING_LOOP, reported);
        assertEquals(RunStatus.SKIPPED, r.status());
        assertSame(r, reported.get(0));
    }
}
