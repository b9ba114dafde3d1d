package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.server.MicroburstServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.storm.generated.SupervisorSummary;
import org.apache.storm.generated.TopologySummary;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Storm's supervisor page ({@code supervisor.html?id=|host=}) and owner page ({@code owner.html?id=}) in headless
 * Chromium, reached as a Storm operator reaches them: by the cluster page's links. Skipped, saying why, where Chromium
 * or its driver is missing (failed where a browser is required: see {@link Browser#requireOrSkip}).
 */
@Timeout(120)
class SupervisorOwnerPagesBrowserTest {
    private static final String NAME = "page-supervised";
    @TempDir
    static Path dir;
    private static MicroburstServer server;
    private static Browser browser;
    private static String id;

    @BeforeAll
    static void start() throws Exception {
        Browser.requireOrSkip();
        server = WebTestServer.start(dir.resolve("data"));
        id = WebTestServer.submit(server, NAME);
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
        return "http://127.0.0.1:" + server.uiPort() + path;
    }

    @Test
    void supervisorPageFromTheClusterPageListsThisMachinesWorkers() throws Exception {
        SupervisorSummary only = server.cluster().getClusterInfo().get_supervisors().get(0);
        browser.open(url("/index.html"));
        String link = "#supervisors a[href='/supervisor.html?id=" + only.get_supervisor_id() + "']";
        browser.await("the supervisor's id linked", () -> !browser.findAll(link).isEmpty());
        assertEquals(1, browser.findAll("#supervisors a[href='/supervisor.html?host=" + only.get_host() + "']").size());

        browser.click(link);
        browser.await("the supervisor page filled", () -> browser.text("#supervisor tbody td:nth-child(2)")
            .equals(only.get_supervisor_id()));
        assertEquals(only.get_host(), browser.text("#supervisor tbody td"));
        browser.await("the topology's worker listed", () -> browser.findAll("#workers tbody tr").stream()
            .anyMatch(r -> r.getText().contains(NAME)));
        assertEquals(1, browser.findAll("#workers a[href='/topology.html?id=" + id + "']").size());
        String log = browser.find("#workers tbody tr a[href*='/log?file=']").getDomProperty("href");
        assertTrue(log.contains(id), "the worker log link names the topology: " + log);
        browser.screenshot("supervisor");

        browser.open(url("/supervisor.html?id=elsewhere"));
        browser.await("an unknown supervisor said in one line", () -> browser.text("#error")
            .startsWith("no supervisor with id 'elsewhere'"));
    }

    @Test
    void ownerPageFromTheClusterPageListsTheOwnersTopologies() throws Exception {
        TopologySummary topology = server.cluster().getTopologySummaryByName(NAME);
        String owner = topology.get_owner();
        browser.open(url("/index.html"));
        String link = "#topologies a[href='/owner.html?id=" + owner + "']";
        browser.await("the owner linked", () -> !browser.findAll(link).isEmpty());

        browser.click(link);
        browser.await("the owner page filled", () -> browser.text("#owner tbody td").equals(owner));
        int running = server.cluster().getClusterInfo().get_topologies().stream()
            .filter(t -> owner.equals(t.get_owner())).toList().size();
        browser.await("the owner's topologies listed", () -> browser.findAll("#topologies tbody tr").size() == running
            && browser.text("#owner tbody td:nth-child(2)").equals(String.valueOf(running)));
        assertEquals(List.of(NAME), browser.findAll("#topologies a[href='/topology.html?id=" + id + "']").stream()
            .map(a -> a.getText()).toList());
        browser.screenshot("owner");
    }
}
