package io.microburst.bench.result;

import static io.microburst.bench.result.TestRuns.failed;
import static io.microburst.bench.result.TestRuns.ok;
import static io.microburst.bench.result.TestRuns.scaled;
import static io.microburst.bench.result.TestRuns.skipped;
import static io.microburst.bench.result.TestRuns.withLatency;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryTest {
    @Test
    void ratiosDivideMediansOfRounds() {
        List<RunResult> runs = List.of(
            ok("w", "microburst", 1, 30), ok("w", "storm", 1, 10), ok("w", "storm-tuned", 1, 20),
            ok("w", "ceiling-loop", 1, 100), ok("w", "ceiling-spsc", 1, 60),
            ok("w", "microburst", 2, 36), ok("w", "storm", 2, 12), ok("w", "storm-tuned", 2, 15),
            ok("w", "ceiling-loop", 2, 120), ok("w", "ceiling-spsc", 2, 40),
            ok("w", "microburst", 3, 33), ok("w", "storm", 3, 11), ok("w", "storm-tuned", 3, 22),
            ok("w", "ceiling-loop", 3, 110), ok("w", "ceiling-spsc", 3, 55));
        SummaryRow microburst = row(Summary.of(runs), "microburst");
        assertEquals(33, microburst.throughput());
        assertEquals(3.0, microburst.vsStorm(), 1e-12);
        assertEquals(33.0 / 20, microburst.vsStormTuned(), 1e-12);
        assertEquals(33.0 / 110, microburst.ofLoop(), 1e-12);
        assertEquals(33.0 / 55, microburst.ofSpsc(), 1e-12);
        assertEquals(3, microburst.roundsOk());
        assertEquals(1.0, row(Summary.of(runs), "storm").vsStorm(), 1e-12);
    }

    @Test
    void anUnfusedVariantWithoutStormRunsIsComparedWithItsTwinsStormFigures() {
        List<RunResult> runs = List.of(ok("c", "microburst", 1, 100), ok("c", "storm", 1, 10), ok("c", "storm-tuned", 1, 20),
            ok("c-unfused", "microburst", 1, 40), skipped("c-unfused", "storm", 1), skipped("c-unfused", "storm-tuned", 1));
        List<SummaryRow> unfused = Summary.of(runs).stream().filter(r -> r.workload().equals("c-unfused")).toList();
        SummaryRow microburst = row(unfused, "microburst");
        assertEquals(4.0, microburst.vsStorm(), 1e-12);
        assertEquals(2.0, microburst.vsStormTuned(), 1e-12);
        SummaryRow storm = row(unfused, "storm");
        assertEquals(0, storm.roundsOk());
        assertTrue(Double.isNaN(storm.throughput()), "a skipped runtime shows no figure, not its twin's");
    }

    @Test
    void aStaticPlacementVariantIsComparedWithItsTwinsStormFigures() {
        List<RunResult> runs = List.of(ok("w", "microburst", 1, 100), ok("w", "storm", 1, 10),
            ok("w-static", "microburst", 1, 50), skipped("w-static", "storm", 1));
        SummaryRow microburst = row(Summary.of(runs).stream().filter(r -> r.workload().equals("w-static")).toList(),
            "microburst");
        assertEquals(5.0, microburst.vsStorm(), 1e-12);
    }

    @Test
    void parallelEfficiencyIsThroughputPerCoreAndSpeedUpOverParallelismOne() {
        List<RunResult> runs = List.of(scaled("wc", 1, "microburst", 8e6), scaled("wc", 2, "microburst", 12e6),
            scaled("wc", 1, "storm", 2e6), scaled("wc", 4, "storm", 3e6), ok("single", "microburst", 1, 5e6));
        List<SummaryRow> rows = Summary.of(runs);
        SummaryRow p2 = rows.stream().filter(r -> r.workload().equals("wc-p2")).findFirst().orElseThrow();
        assertEquals(1.5, p2.vsP1(), 1e-12);
        assertEquals(12e6, p2.perCore(), 1e-6, "scaled runs use 1.0 core");
        SummaryRow stormP4 = rows.stream().filter(r -> r.workload().equals("wc-p4")).findFirst().orElseThrow();
        assertEquals(1.5, stormP4.vsP1(), 1e-12, "each runtime against its own parallelism 1");
        SummaryRow p1 = rows.stream().filter(r -> r.workload().equals("wc-p1") && r.runtime().equals("microburst"))
            .findFirst().orElseThrow();
        assertEquals(1.0, p1.vsP1(), 1e-12);
        SummaryRow single = row(rows.stream().filter(r -> r.workload().equals("single")).toList(), "microburst");
        assertTrue(Double.isNaN(single.vsP1()), "a workload that does not scale has no speed-up");
        assertEquals(5e6 / 1.5, single.perCore(), 1e-6);
        String table = TerminalTable.render(rows);
        assertTrue(table.contains("per core") && table.contains("vs p1") && table.contains("1.50x"), table);
    }

    @Test
    void rowsFollowRuntimeOrderWhateverTheRunOrder() {
        List<SummaryRow> rows = Summary.of(List.of(ok("w", "ceiling-loop", 1, 1), ok("w", "storm", 1, 1),
            ok("w", "microburst", 1, 1)));
        assertEquals(List.of("microburst", "storm", "ceiling-loop"), rows.stream().map(SummaryRow::runtime).toList());
    }

    @Test
    void failedRoundsAreLeftOutOfTheMedianAndAllFailedKeepsTheError() {
        List<SummaryRow> rows = Summary.of(List.of(ok("w", "microburst", 1, 40), failed("w", "microburst", 2, "boom"),
            failed("w", "storm", 1, "no tuple"), failed("w", "storm", 2, "timed out")));
        SummaryRow microburst = row(rows, "microburst");
        assertEquals(40, microburst.throughput());
        assertEquals(1, microburst.roundsOk());
        assertEquals(2, microburst.roundsRun());
        assertTrue(Double.isNaN(microburst.vsStorm()), "no Storm median, no ratio");
        SummaryRow storm = row(rows, "storm");
        assertEquals(0, storm.roundsOk());
        assertEquals("timed out", storm.error());
    }

    @Test
    void skippedRunsCountAsNotRun() {
        SummaryRow loop = row(Summary.of(List.of(ok("w", "microburst", 1, 5), skipped("w", "ceiling-loop", 1))),
            "ceiling-loop");
        assertEquals(0, loop.roundsRun());
        assertTrue(Double.isNaN(loop.throughput()));
    }

    @Test
    void latencyComesFromTheRoundWithTheMedianP99() {
        List<RunResult> runs = List.of(withLatency("lat", "storm", 1, 1000, 900), withLatency("lat", "storm", 2, 1000, 100),
            withLatency("lat", "storm", 3, 1000, 300));
        assertEquals(300, row(Summary.of(runs), "storm").latency().p99());
        assertNull(row(Summary.of(List.of(ok("w", "storm", 1, 3))), "storm").latency());
    }

    private static SummaryRow row(List<SummaryRow> rows, String runtime) {
        return rows.stream().filter(r -> r.runtime().equals(runtime)).findFirst().orElseThrow();
    }
}
