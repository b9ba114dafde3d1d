package io.microburst.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.bench.runtime.RuntimeId;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {
    @Test
    void defaultsFollowTheMeasuringRules() {
        BenchOptions o = BenchOptions.parse();
        assertFalse(o.quick());
        assertEquals(3, o.rounds());
        assertEquals(10, o.warmupSeconds());
        assertEquals(20, o.measureSeconds());
        // Every runtime but the real Storm cluster, which starts a cluster per run and is chosen with --runtimes.
        assertEquals(List.of(RuntimeId.MICROBURST, RuntimeId.STORM, RuntimeId.STORM_TUNED, RuntimeId.FLINK,
            RuntimeId.CEILING_LOOP, RuntimeId.CEILING_SPSC), o.runtimes());
        assertEquals(List.of(RuntimeId.STORM_CLUSTER_2W),
            BenchOptions.parse("--runtimes", "storm-cluster-2w").runtimes());
        assertEquals(List.of("-Xmx2g"), o.heap());
        assertTrue(o.out().startsWith(Path.of("results")));
    }

    @Test
    void quickShortensEverythingButExplicitOptionsWinInAnyOrder() {
        BenchOptions quick = BenchOptions.parse("--quick");
        assertEquals(1, quick.rounds());
        assertTrue(quick.warmupSeconds() + quick.measureSeconds() <= 5);
        BenchOptions explicit = BenchOptions.parse("--rounds", "2", "--quick", "--measure=7");
        assertEquals(2, explicit.rounds());
        assertEquals(7, explicit.measureSeconds());
        assertEquals(quick.warmupSeconds(), explicit.warmupSeconds());
    }

    @Test
    void onlyIsRepeatableAndTakesCommaLists() {
        BenchOptions o = BenchOptions.parse("--only", "wordcount,rollingsort", "--only", "const-null");
        assertEquals(List.of("wordcount", "rollingsort", "const-null"), o.only());
    }

    @Test
    void runtimesKeepTheGivenOrderWithoutDuplicates() {
        BenchOptions o = BenchOptions.parse("--runtimes", "storm,microburst,storm");
        assertEquals(List.of(RuntimeId.STORM, RuntimeId.MICROBURST), o.runtimes());
    }

    @Test
    void heapFlagsAreSplitIntoArguments() {
        assertEquals(List.of("-Xms1g", "-Xmx1g"), BenchOptions.parse("--heap", "-Xms1g  -Xmx1g").heap());
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--heap", "-Xmx1g; rm -rf /"));
    }

    @Test
    void badCommandLinesAreRejectedWithAMessage() {
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--rounds", "0"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--measure", "-1"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--runtimes", "heron"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--only"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--fast"));
        assertTrue(e.getMessage().contains("Usage: microburst bench"), e.getMessage());
        assertTrue(e.getMessage().contains("Unknown option: '--fast'"), e.getMessage());
    }
}
