package io.microburst.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.bench.result.BenchMeta;
import io.microburst.bench.result.ResultsFiles;
import io.microburst.bench.result.RunResult;
import io.microburst.bench.result.RunStatus;
import io.microburst.bench.runtime.FlinkRuntime;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchMainTest {
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);

    @Test
    void anEarlierBenchIsReRenderedFromItsJson(@TempDir Path dir) throws Exception {
        BenchMeta meta = new BenchMeta("2026-01-01T00:00:00Z", "2026-01-01T00:10:00Z", 2, "17", "Linux", 1, 1, 2, "-Xmx2g",
            List.of("microburst", "storm"), List.of("const-null"), true);
        List<RunResult> runs = List.of(
            new RunResult("const-null", "const-null", 1, "microburst", 1, RunStatus.OK, null, "tuples/s", 9e6, 18_000_000,
                2, null, 1, 9, 300L << 20, 800, null),
            new RunResult("const-null", "const-null", 1, "storm", 1, RunStatus.OK, null, "tuples/s", 3e6, 6_000_000, 2, null,
                1.5, 125, 700L << 20, 7000, null));
        new ResultsFiles(dir).write(meta, runs);
        Files.delete(dir.resolve("report.html"));
        Files.writeString(dir.resolve("summary.txt"), "stale");

        assertEquals(0, BenchMain.rerender(dir, out));
        assertTrue(Files.exists(dir.resolve("report.html")));
        String table = Files.readString(dir.resolve("summary.txt"));
        assertTrue(table.contains("3.00x"), table);
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("3.00x"));
    }

    @Test
    void aMissingResultsFolderIsReportedNotThrown(@TempDir Path dir) {
        assertEquals(1, BenchMain.rerender(dir.resolve("nothing-here"), out));
    }

    @Test
    void anUnknownWorkloadStopsBeforeAnyRun(@TempDir Path dir) {
        int exit = BenchMain.run(BenchOptions.parse("--only", "no-such-workload", "--out", dir.toString()), out, false);
        assertEquals(2, exit);
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("no workload called no-such-workload"));
        assertFalse(Files.exists(dir.resolve(ResultsFiles.JSON)));
    }

    @Test
    void helpPrintsUsage() {
        assertEquals(0, BenchMain.run(BenchOptions.parse("--help"), out, false));
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("--report-from"));
    }

    @Test
    void withoutFlinksJarsTheFlinkRunsAreSkippedWithWhatToDo(@TempDir Path dir) throws Exception {
        System.setProperty(FlinkRuntime.LIB_PROPERTY, dir.resolve("not-built").toString());
        try {
            int exit = BenchMain.run(BenchOptions.parse("--only", "scoring-p1", "--runtimes", "flink", "--rounds", "2",
                "--out", dir.toString()), out, false);
            assertEquals(0, exit);
        } finally {
            System.clearProperty(FlinkRuntime.LIB_PROPERTY);
        }
        String console = this.console.toString(StandardCharsets.UTF_8);
        assertTrue(console.contains("flink: skipped, its jars are not built"), console);
        assertTrue(console.contains("-P flink"), console);
        List<RunResult> runs = ResultsFiles.read(dir.resolve(ResultsFiles.JSON)).runs();
        assertEquals(2, runs.size());
        assertTrue(runs.stream().allMatch(r -> r.status() == RunStatus.SKIPPED && r.error().startsWith("flink: skipped")),
            runs.toString());
    }
}
