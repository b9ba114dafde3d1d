package io.microburst.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.bench.result.ResultsFiles;
import io.microburst.bench.result.RunResult;
import io.microburst.bench.result.RunStatus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI smoke test: a 2-second quick bench of one workload on Microburst, through the real command (child JVM, result
 * line, results files). Checks that tuples flowed and every output was written; never how fast.
 */
class BenchSmokeTest {
    @Test
    void quickBenchOfOneWorkloadOnMicroburst(@TempDir Path out) throws Exception {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        BenchOptions options = BenchOptions.parse("--quick", "--only", "const-null", "--runtimes", "microburst",
            "--warmup", "1", "--measure", "1", "--heap", "-Xmx512m", "--startup-limit", "30", "--out", out.toString());
        int exit = BenchMain.run(options, new PrintStream(console, true, StandardCharsets.UTF_8), false);
        String text = console.toString(StandardCharsets.UTF_8);

        ResultsFiles.Document results = ResultsFiles.read(out.resolve(ResultsFiles.JSON));
        assertEquals(1, results.runs().size(), text);
        RunResult run = results.runs().get(0);
        assertEquals(RunStatus.OK, run.status(), () -> run.error() + "\n" + text + "\n" + log(run));
        assertEquals(0, exit, text);
        assertTrue(run.delivered() > 0);
        assertTrue(run.startupMillis() > 0);
        assertTrue(text.contains("const-null") && text.contains("microburst"), text);
        for (String name : new String[] {"runs.csv", "summary.csv", "summary.txt", "report.html"}) {
            assertTrue(Files.size(out.resolve(name)) > 0, name);
        }
    }

    private static String log(RunResult run) {
        try {
            return run.log() == null ? "" : Files.readString(Path.of(run.log()));
        } catch (Exception e) {
            return e.toString();
        }
    }
}
