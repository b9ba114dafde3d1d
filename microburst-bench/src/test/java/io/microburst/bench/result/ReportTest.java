package io.microburst.bench.result;

import static io.microburst.bench.result.TestRuns.failed;
import static io.microburst.bench.result.TestRuns.ok;
import static io.microburst.bench.result.TestRuns.scaled;
import static io.microburst.bench.result.TestRuns.skipped;
import static io.microburst.bench.result.TestRuns.withLatency;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {
    private static final BenchMeta META = new BenchMeta("2026-01-01T00:00:00Z", "2026-01-01T01:00:00Z", 2, "17", "Linux",
        3, 10, 20, "-Xmx2g", List.of("microburst", "storm"), List.of("w"), false);

    private static final List<RunResult> RUNS = List.of(
        ok("const-null", "microburst", 1, 30e6), ok("const-null", "storm", 1, 7.5e6), failed("const-null", "storm-tuned", 1,
            "<script>alert(1)</script>"), skipped("const-null", "ceiling-loop", 1),
        scaled("wordcount", 1, "microburst", 8e6), scaled("wordcount", 2, "microburst", 12e6),
        scaled("wordcount", 1, "storm", 2.9e6), scaled("wordcount", 2, "storm", 1.76e6),
        withLatency("latency-1-per-ms", "microburst", 1, 1000, 20), withLatency("latency-1-per-ms", "storm", 1, 1000, 159));

    @Test
    void terminalTableShowsRatiosFailuresAndNotApplicable() {
        String table = TerminalTable.render(Summary.of(RUNS));
        String microburst = line(table, "const-null", "microburst");
        assertTrue(microburst.contains("30.00M"), microburst);
        assertTrue(microburst.contains("4.00x"), microburst);
        assertTrue(line(table, "const-null", "storm-tuned").contains("FAILED"));
        assertTrue(line(table, "const-null", "ceiling-loop").contains("n/a"));
        assertTrue(line(table, "latency-1-per-ms", "storm").contains("159us"));
    }

    @Test
    void htmlIsSelfContainedAndDrawsBothKindsOfChart() {
        String html = HtmlReport.render(META, RUNS, Summary.of(RUNS));
        assertFalse(html.contains("<script"), "no script at all, so nothing to fetch and nothing injected");
        assertFalse(html.contains("<link"), "no external stylesheet");
        Matcher urls = Pattern.compile("https?://[^\"]*").matcher(html);
        while (urls.find()) {
            assertEquals("http://www.w3.org/2000/svg", urls.group(), "the only URL is the SVG namespace");
        }
        assertTrue(html.contains("wordcount: throughput at the last component vs parallelism (2 cores)"));
        assertTrue(html.contains("latency-1-per-ms: end-to-end latency CDF"));
        assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "error text is escaped");
        assertTrue(html.contains("<polyline"));
        assertFalse(html.contains("const-null: throughput"), "no scaling chart for a single parallelism");
    }

    @Test
    void flinkGetsARatioChartOfItsOwnOnlyWhenItRan() {
        assertFalse(HtmlReport.render(META, RUNS, Summary.of(RUNS)).contains("Ratios against Flink"));
        List<RunResult> withFlink = List.of(ok("scoring-p1", "microburst", 1, 6e6), ok("scoring-p1", "storm", 1, 1e6),
            ok("scoring-p1", "flink", 1, 3e6));
        String html = HtmlReport.render(META, withFlink, Summary.of(withFlink));
        int section = html.indexOf("Ratios against Flink");
        assertTrue(section > 0, "a section for Flink");
        assertTrue(html.indexOf(Format.ratio(2.0) + " throughput", section) > 0, "twice Flink's throughput, drawn so");
        assertTrue(html.indexOf(Format.ratio(2.0) + " per core", section) > 0, "twice Flink's per core, drawn so");
    }

    @Test
    void everyResultsFileIsWrittenAndTheJsonReadsBack(@TempDir Path dir) throws Exception {
        List<SummaryRow> summary = new ResultsFiles(dir).write(META, RUNS);
        for (String name : List.of("results.json", "runs.csv", "summary.csv", "summary.txt", "report.html")) {
            assertTrue(Files.size(dir.resolve(name)) > 0, name);
        }
        ResultsFiles.Document document = ResultsFiles.read(dir.resolve("results.json"));
        assertEquals(RUNS.size(), document.runs().size());
        assertEquals(RUNS.get(0), document.runs().get(0));
        assertEquals(summary.size(), document.summary().size());
        assertEquals(META, document.meta());
        assertEquals(RUNS.size() + 1, Files.readAllLines(dir.resolve("runs.csv")).size());
    }

    @Test
    void chartTicksCoverTheRange() {
        assertEquals(List.of(1.0, 10.0, 100.0, 1000.0), SvgChart.ticks(new double[] {1, 1000}, true));
        List<Double> linear = SvgChart.ticks(new double[] {0, 4.2}, false);
        assertEquals(0.0, linear.get(0));
        assertTrue(linear.get(linear.size() - 1) <= 4.2 && linear.size() >= 4, linear.toString());
        assertEquals(0.5, SvgChart.scale(10, new double[] {1, 100}, true), 1e-12);
        assertEquals(List.of(1.0, 2.0, 3.0, 4.0), SvgChart.integerTicks(new double[] {0.75, 4.25}));
        assertEquals(List.of("0.01", "1", "250", "1k", "2.5M", "10M"), List.of(SvgChart.label(0.01), SvgChart.label(1),
            SvgChart.label(250), SvgChart.label(1000), SvgChart.label(2.5e6), SvgChart.label(1e7)));
    }

    private static String line(String table, String workload, String runtime) {
        return table.lines().filter(l -> l.startsWith(workload + " ") && l.contains(" " + runtime + " ")).findFirst()
            .orElseThrow(() -> new AssertionError("no line for " + workload + "/" + runtime + " in\n" + table));
    }
}
