package io.microburst.bench.result;

import static io.microburst.bench.result.TestRuns.ok;
import static io.microburst.bench.result.TestRuns.scaled;
import static io.microburst.bench.result.TestRuns.withLatency;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report as a browser draws it: headless Chromium renders a report with every kind of chart to a PNG (kept in
 * {@code target/screenshots/report.png} to look at), which must show Microburst's and Storm's colours, the ceiling's
 * grey and the hatching of an absurd ratio. Skipped when Chromium is not installed.
 */
class ReportRenderTest {
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    @Test
    void reportRendersInHeadlessChromium(@TempDir Path dir) throws Exception {
        String chromium = chromium();
        assumeTrue(chromium != null, "headless Chromium not found: install Debian's 'chromium' package (.ci/run does)");
        List<RunResult> runs = List.of(
            ok("const-null", "microburst", 1, 60e6), ok("const-null", "storm", 1, 5e6), ok("const-null", "ceiling-loop", 1,
                90e6),
            ok("stalled", "microburst", 1, 50e6), ok("stalled", "storm", 1, 1e3),
            scaled("wordcount", 1, "microburst", 18e6), scaled("wordcount", 2, "microburst", 19e6),
            scaled("wordcount", 4, "microburst", 17e6), scaled("wordcount", 1, "storm", 2.2e6),
            scaled("wordcount", 2, "storm", 2.6e6), scaled("wordcount", 4, "storm", 2.4e6),
            scaled("wordcount", 1, "ceiling-loop", 26e6),
            withLatency("latency-1-per-ms", "microburst", 1, 1000, 20), withLatency("latency-1-per-ms", "storm", 1, 1000, 2900));
        BenchMeta meta = new BenchMeta("2026-01-01T00:00:00Z", "2026-01-01T01:00:00Z", 2, "17", "Linux", 1, 10, 20, "-Xmx2g",
            List.of("microburst", "storm", "ceiling-loop"), List.of("const-null"), false);
        new ResultsFiles(dir).write(meta, runs);
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("Ratios against Storm") && html.contains("(check: beyond 100x)"), "ratio chart, flagged");
        assertTrue(html.contains("99.9%") && html.contains("ceiling: "), "percentile axis and named ceilings");

        Files.createDirectories(SCREENSHOTS);
        Path png = SCREENSHOTS.resolve("report.png").toAbsolutePath();
        Files.deleteIfExists(png);
        Path profile = Files.createTempDirectory(dir, "chromium-");
        List<String> command = new ArrayList<>(List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
            "--hide-scrollbars", "--user-data-dir=" + profile, "--window-size=1400,4000", "--screenshot=" + png,
            dir.resolve("report.html").toUri().toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(dir.resolve("chromium.txt").toFile()).start();
        try {
            assertTrue(process.waitFor(90, TimeUnit.SECONDS), "chromium did not finish: " + command);
            assertEquals(0, process.exitValue(), () -> command + "\n" + read(dir.resolve("chromium.txt")));
        } finally {
            process.destroyForcibly();
        }
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1400, image.getWidth());
        int microburst = 0;
        int storm = 0;
        int ceiling = 0;
        int hatching = 0;
        int widest = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            int first = -1;
            int last = -1;
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y) & 0xffffff;
                microburst += near(rgb, 0xd62728) ? 1 : 0;
                storm += near(rgb, 0x1f77b4) ? 1 : 0;
                ceiling += near(rgb, 0x555555) ? 1 : 0;
                hatching += near(rgb, 0xe08000) ? 1 : 0;
                if (near(rgb, 0x999999) || near(rgb, 0xeeeeee)) { // plot frames and grid lines
                    first = first < 0 ? x : first;
                    last = x;
                }
            }
            widest = Math.max(widest, last - first);
        }
        assertTrue(microburst > 200 && storm > 200, "both runtimes drawn: " + microburst + " / " + storm + " pixels");
        assertTrue(ceiling > 100, "the ceiling drawn: " + ceiling + " pixels");
        assertTrue(hatching > 20, "the absurd ratio hatched: " + hatching + " pixels");
        assertTrue(widest > 1400 * 3 / 4, "charts span the page: widest plot line " + widest + " of 1400 pixels");
    }

    private static boolean near(int rgb, int target) {
        int d = 0;
        for (int shift = 0; shift <= 16; shift += 8) {
            d += Math.abs(((rgb >> shift) & 0xff) - ((target >> shift) & 0xff));
        }
        return d < 24;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static String chromium() {
        for (String candidate : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
            if (new File(candidate).canExecute()) {
                return candidate;
            }
        }
        return null;
    }
}
