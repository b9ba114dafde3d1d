package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.server.MicroburstServer;
import java.io.OutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The logviewer's pages as a person uses them, in headless Chromium: the log page's Next and length selector, the
 * search box leading to the matches and from a match back to the page centred on it, and a topology's deep search
 * over its rolled logs. Screenshots in {@code target/screenshots/}. Skipped, saying why, without Chromium.
 */
@Timeout(120)
class LogPagesBrowserTest {
    private static final String TOPOLOGY = "logpages-1-1700000000";
    private static final String LOG = TOPOLOGY + "/1024/worker.log";
    @TempDir
    static Path dir;
    private static MicroburstServer server;
    private static Browser browser;
    private static String text;

    @BeforeAll
    static void start() throws Exception {
        Browser.requireOrSkip();
        server = WebTestServer.start(dir.resolve("data"));
        Path port = Files.createDirectories(server.workerLogsDir().resolve(TOPOLOGY).resolve("1024"));
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            lines.append(String.format("2026-11-27 10:00:%02d.000 Thread-%d o.a.s.Bolt [INFO] tuple %04d%s%n", i % 60, i % 4,
                i, i == 1500 ? " needle here" : ""));
        }
        text = lines.toString();
        Files.writeString(port.resolve("worker.log"), text);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(port.resolve("worker.log.1.gz")))) {
            out.write("an older needle, rolled\n".getBytes(StandardCharsets.UTF_8));
        }
        browser = Browser.start(Files.createDirectories(dir.resolve("chromium")));
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + server.logViewerPort() + path;
    }

    private static String content() {
        return (String) browser.script("return document.getElementById('logContent').textContent");
    }

    @Test
    void theLogPageMovesByLengthAndChangesLength() throws Exception {
        browser.open(url("/api/v1/log?file=" + URLEncoder.encode(LOG, StandardCharsets.UTF_8) + "&start=0&length=10240"));
        assertEquals(text.substring(0, 10240), content());
        browser.screenshot("logviewer-page");
        browser.click("nav.pager a.next");
        browser.await("the next page", () -> browser.currentUrl().contains("start=10240"));
        assertEquals(text.substring(10240, 20480), content());
        browser.script("document.querySelector('#page-length select').value = '51200'");
        browser.click("#page-length button");
        browser.await("a longer page", () -> browser.currentUrl().contains("length=51200"));
        assertEquals(text.substring(10240, 10240 + 51200), content());
    }

    @Test
    void theSearchBoxListsMatchesThatOpenThePageAtTheMatch() throws Exception {
        browser.open(url("/api/v1/log?file=" + URLEncoder.encode(LOG, StandardCharsets.UTF_8)));
        browser.type("#search-box input[name=search]", "needle here");
        browser.click("#search-box button");
        browser.await("the match listed", () -> !browser.findAll("#results tbody td.match").isEmpty());
        assertTrue(browser.text("#results tbody td.match").contains("tuple 1500 needle here"));
        browser.screenshot("logviewer-search");
        browser.click("#results tbody a");
        browser.await("the log page", () -> browser.currentUrl().contains("/api/v1/log?"));
        assertTrue(content().contains("tuple 1500 needle here"), "the page holds the match");
    }

    @Test
    void theDeepSearchFindsTheRolledLogsWhenAsked() throws Exception {
        browser.open(url("/deep_search_result.html?id=" + TOPOLOGY + "&search=needle&count=5&search-archived=on"));
        browser.await("two files' matches", () -> browser.findAll("#results tbody tr").size() == 2);
        assertEquals(LOG, browser.text("#results tbody tr:nth-child(1) td"));
        assertEquals(LOG + ".1.gz", browser.text("#results tbody tr:nth-child(2) td"));
        browser.screenshot("logviewer-deep-search");
    }
}
