package io.microburst.bench.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ResultLineTest {
    @Test
    void aResultSurvivesTheRoundTrip() {
        Histogram nanos = new Histogram(3);
        for (long v = 1_000; v <= 100_000; v += 1_000) {
            nanos.recordValue(v);
        }
        RunResult original = new RunResult("latency-1-per-ms", "latency-1-per-ms", 1, "storm", 2, RunStatus.OK, null,
            "tuples/s", 999.5, 19990, 20.0, LatencySummary.of("end-to-end", nanos), 0.36, 125, 900L << 20, 5700.0, null);
        String line = ResultLine.format(original);
        assertTrue(line.startsWith(ResultLine.MARKER));
        assertFalse(line.contains("\n"));
        RunResult parsed = ResultLine.parse(line).orElseThrow();
        assertEquals(original, parsed);
        assertEquals(50.0, parsed.latency().p50(), 0.1);
        assertEquals(100.0, parsed.latency().max(), 0.1);
    }

    @Test
    void aFailedResultKeepsItsMissingNumbersMissing() {
        RunResult failed = RunResult.notMeasured("w", "w", 1, "microburst", 1, RunStatus.FAILED, "not yet", "tuples/s");
        RunResult parsed = ResultLine.parse(ResultLine.format(failed)).orElseThrow();
        assertTrue(Double.isNaN(parsed.throughput()));
        assertEquals("not yet", parsed.error());
        assertEquals(RunStatus.FAILED, parsed.status());
    }

    @Test
    void theResultIsFoundAmongLogLines() {
        RunResult result = TestRuns.ok("w", "storm", 1, 42);
        List<String> lines = List.of("22:14:23 WARN something {\"json\":1}", ResultLine.format(result), "run took 17.9 s");
        assertEquals(Optional.of(result), ResultLine.find(lines));
        assertEquals(Optional.empty(), ResultLine.find(List.of("no result here")));
    }

    @Test
    void aMalformedResultLineIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> ResultLine.parse(ResultLine.MARKER + " {not json"));
    }
}
