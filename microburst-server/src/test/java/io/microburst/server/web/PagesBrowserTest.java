package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.runtime.topology.ThreadView;
import io.microburst.server.MicroburstServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.LogConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pages as a person uses them, in headless Chromium through Selenium: Storm's URLs, the live graph read as it is
 * drawn (rates, capacity, fusion, current after a rebalance), and the actions clicked (rebalance dialog, kill with a
 * wait and a confirmation, activate/deactivate enabled by state, debug and log level), and a component's flame graph
 * sampled on demand, and where the tuples of an acked topology with a stalling bolt are. Screenshots of each page land in
 * {@code target/screenshots/}. Skipped, saying why, where Chromium or its driver is not installed.
 */
@Timeout(180)
class PagesBrowserTest {
    private static final String WORDS = "page-words";
    @TempDir
    static Path dir;
    private static MicroburstServer server;
    private static Browser browser;
    private static String words;

    @BeforeAll
    static void start() throws Exception {
        Browser.requireOrSkip();
        server = WebTestServer.start(dir.resolve("data"));
        words = WordTopology.submit(server, WORDS);
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
    void clusterPageListsTheTopologiesWithStormsSummaries() throws Exception {
        browser.open(url("/index.html"));

        browser.await("the topology listed", () -> !browser.findAll("#topologies a[href='/topology.html?id=" + words + "']")
            .isEmpty());
        assertEquals("2.8.3", browser.text("#cluster tbody td"));
        assertEquals("ACTIVE", browser.text("#topologies tbody tr td:nth-child(4)"));
        browser.screenshot("index");
        browser.click("#topologies a[href='/topology.html?id=" + words + "']");
        browser.await("the topology page", () -> browser.currentUrl().endsWith("/topology.html?id=" + words));
    }

    @Test
    void graphShowsRatesCapacityAndFusionAndFollowsARebalance() throws Exception {
        browser.open(url("/topology.html?id=" + words));

        browser.await("live rates on every component", () -> nodes().size() == 4
            && nodes().stream().allMatch(n -> number(n.get("rate")) > 0));
        Map<String, Object> split = node("split");
        assertEquals(1, ((Number) split.get("threads")).intValue());
        assertTrue(number(split.get("capacityValue")) >= 0 && split.get("label").toString().contains("capacity"), split.toString());
        List<Map<String, Object>> edges = edges();
        assertEquals(3, edges.size(), edges.toString());
        for (Map<String, Object> edge : edges) {
            String from = edge.get("source").toString().substring(2);
            String to = edge.get("target").toString().substring(2);
            assertEquals(fusion(from, to), edge.get("fused"), "fusion of " + from + " -> " + to + " as the threads run");
            assertTrue(edge.get("label").toString().contains("/s"), edge.toString());
        }
        assertEquals("all", fusion("count", "report"), "the runtime fuses a one-to-one chain");
        assertEquals(List.of("fused: count + report on 2 threads"), chains());
        browser.screenshot("topology");

        browser.click("#rebalance");
        browser.type("#rebalance-executors input[data-component='split']", "3");
        browser.type("#rebalance-wait", "0");
        browser.screenshot("topology-rebalance-dialog");
        browser.click("#rebalance-confirm");

        browser.await("split on 3 threads in the graph", () -> ((Number) node("split").get("threads")).intValue() == 3);
        assertEquals(3, server.cluster().getThreadViews(WORDS).stream()
            .filter(t -> t.tasks().stream().anyMatch(k -> k.componentId().equals("split"))).count());
        browser.await("rates again after the rebalance", () -> number(node("split").get("rate")) > 0);
        browser.screenshot("topology-rebalanced");
    }

    @Test
    void activateAndDeactivateAreEnabledByState() throws Exception {
        String id = WebTestServer.submit(server, "page-switch");
        browser.open(url("/topology.html?id=" + id));
        browser.await("activate disabled while active", () -> !browser.find("#activate").isEnabled()
            && browser.find("#deactivate").isEnabled());

        browser.click("#deactivate");
        browser.await("inactive, and the buttons swapped", () -> browser.find("#activate").isEnabled()
            && !browser.find("#deactivate").isEnabled());
        assertEquals("INACTIVE", WebTestServer.status(server, "page-switch"));
        browser.click("#activate");
        browser.await("active again", () -> !browser.find("#activate").isEnabled());
        assertEquals("ACTIVE", WebTestServer.status(server, "page-switch"));
    }

    @Test
    void killAsksForAWaitAndAConfirmation() throws Exception {
        String id = WebTestServer.submit(server, "page-doomed");
        browser.open(url("/topology.html?id=" + id));
        browser.await("the page filled", () -> browser.text("#summary tbody td").equals("page-doomed"));

        browser.click("#kill");
        assertTrue(browser.find("#kill-dialog").isDisplayed());
        assertEquals("30", browser.find("#kill-wait").getDomProperty("value"), "the message timeout, as Storm's UI offers");
        browser.screenshot("topology-kill-dialog");
        browser.click("#kill-dialog button[value='cancel']");
        assertFalse(browser.find("#kill-dialog").isDisplayed());
        assertTrue(WebTestServer.running(server, "page-doomed"), "cancelled: still running");

        browser.click("#kill");
        browser.type("#kill-wait", "0");
        browser.click("#kill-confirm");
        browser.await("killed, back on the cluster page", () -> !WebTestServer.running(server, "page-doomed")
            && browser.currentUrl().endsWith("/index.html"));
    }

    @Test
    void upgradeDialogSendsTheJarAndShowsTheRefusal() throws Exception {
        String id = WebTestServer.submit(server, "page-upgraded");
        browser.open(url("/topology.html?id=" + id));
        browser.await("Upgrade enabled, Roll back not before an upgrade", () -> browser.find("#upgrade").isEnabled()
            && !browser.find("#rollback").isEnabled());
        Path notJar = Files.writeString(dir.resolve("not-a.jar"), "not a jar");
        browser.click("#upgrade");
        assertTrue(browser.find("#upgrade-dialog").isDisplayed());
        browser.find("#upgrade-jar").sendKeys(notJar.toString());
        browser.type("#upgrade-main", "com.example.Main");
        browser.type("#upgrade-wait", "5");
        browser.screenshot("topology-upgrade-dialog");
        browser.click("#upgrade-confirm");
        browser.await("the server's refusal shown", () -> browser.text("#error").contains("the upload is not a jar"));
        assertFalse(browser.find("#upgrade-dialog").isDisplayed());
        assertEquals("ACTIVE", WebTestServer.status(server, "page-upgraded"), "the running version untouched");
        assertEquals(id, server.cluster().getTopologySummaryByName("page-upgraded").get_id());
    }

    @Test
    void componentPageAnswersAtStormsUrl() throws Exception {
        browser.open(url("/component.html?id=count&topology_id=" + words));

        browser.await("executors listed", () -> browser.findAll("#executors tbody tr").size() >= 2);
        assertEquals("bolt", browser.text("#summary tbody td:nth-child(3)"));
        assertEquals(WORDS, browser.text("#summary tbody td:nth-child(2)"));
        assertEquals(4, browser.findAll("#stats tbody tr").size(), "Storm's four windows");
        browser.screenshot("component");
    }

    @Test
    void componentPageShowsInputStats() throws Exception {
        HttpResponse<String> api = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create(url("/api/v1/topology/" + words + "/component/count"))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, api.statusCode(), api.body());
        assertTrue(api.body().contains("\"inputStats\""),
            "the component's REST answer has Storm's inputStats: " + api.body());
        browser.open(url("/component.html?id=count&topology_id=" + words));

        browser.await("input stats from split", () -> browser.findAll("#inputs tbody td").stream()
            .anyMatch(td -> td.getText().equals("split")));
    }

    @Test
    void flameGraphOfAComponentsThreadsOnDemand() throws Exception {
        browser.open(url("/component.html?id=split&topology_id=" + words));
        browser.await("the page filled", () -> browser.text("#summary tbody td").equals("split"));

        browser.type("#flame-seconds", "1");
        browser.click("#flame-sample");

        browser.await("the split bolt's execute in the flame graph", () -> ((List<?>) browser.script(
            "return MicroburstFlame.frames()")).contains("WordTopology$SplitBolt.execute"));
        assertFalse(browser.findAll("#flame canvas").isEmpty(), "drawn by ECharts");
        assertTrue(browser.text("#flame-cost").matches("\\d+ samples of \\d+ threads? over 1 s; sampling took .*"),
            browser.text("#flame-cost"));
        browser.screenshot("component-flame");
        HttpResponse<String> tooLong = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url(
            "/api/v1/topology/" + words + "/component/split/flamegraph?seconds=600"))).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(400, tooLong.statusCode());
        assertTrue(tooLong.body().contains("seconds must be a whole number from 1 to 10, got '600'"), tooLong.body());
    }

    @Test
    @SuppressWarnings("unchecked")
    void whereAreMyTuplesShowsStalledTreesAndWhyTreesFailed() throws Exception {
        whereAreMyTuples("page-stall");
    }

    @SuppressWarnings("unchecked")
    private static void whereAreMyTuples(String name) throws Exception {
        String id = StallingTopology.submit(server, name);
        try {
            String staller = "staller:" + taskOf(name, "staller");
            String failer = "failer:" + taskOf(name, "failer");
            browser.open(url("/topology.html?id=" + id));

            browser.await("pending trees held at " + staller, () -> ((List<List<String>>) browser.script(ROWS
                .replace("TABLE", "tuples-pending"))).stream().anyMatch(r -> r.get(0).equals(staller)
                && Integer.parseInt(r.get(1)) > 0 && r.get(2).matches("(queued|executing) \\d+(, .*)?")));
            browser.await("trees failed by " + failer + " and timed out at " + staller, () -> {
                List<List<String>> recent = (List<List<String>>) browser.script(ROWS.replace("TABLE", "tuples-recent"));
                return recent.stream().anyMatch(r -> r.get(3).equals("failed by " + failer) && r.get(4).equals(failer))
                    && recent.stream().anyMatch(r -> r.get(3).matches("timed out while (queued|executing) at " + staller)
                    && r.get(4).equals(staller));
            });
            assertTrue(browser.text("#tuples-note").matches("\\d+ pending trees; busy in a user call: .*staller.*"),
                browser.text("#tuples-note"));
            browser.script("document.getElementById('tuples-details').scrollIntoView()");
            browser.screenshot("topology-tuples");
        } finally {
            StallingTopology.release(name);
            server.cluster().killTopologyWithOpts(name, killNow());
        }
    }

    /** The cells' text of each row of a table's body. */
    private static final String ROWS = "return [...document.querySelectorAll('#TABLE tbody tr')]"
        + ".map(r => [...r.cells].map(c => c.textContent))";

    private static KillOptions killNow() {
        KillOptions kill = new KillOptions();
        kill.set_wait_secs(0);
        return kill;
    }

    private static int taskOf(String topology, String component) throws Exception {
        return server.cluster().getTaskStats(topology).stream().filter(t -> t.componentId().equals(component))
            .findFirst().orElseThrow().taskId();
    }

    @Test
    void debugAndLogLevelFromTheTopologyPage() throws Exception {
        HttpResponse<String> logconfig = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create(url("/api/v1/topology/" + words + "/logconfig"))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, logconfig.statusCode(), "GET logconfig answers: " + logconfig.body());
        browser.open(url("/topology.html?id=" + words));
        browser.await("the page filled", () -> browser.text("#summary tbody td").equals(WORDS));

        browser.click("#log-level");
        // the dialog opens once the current levels were fetched
        browser.await("the log level dialog open", () -> browser.find("#log-dialog").isDisplayed());
        browser.type("#log-logger", "io.microburst.pagetest");
        browser.type("#log-timeout", "60");
        browser.click("#log-confirm");
        browser.await("the level set", () -> {
            try {
                LogConfig config = server.nimbus().getLogConfig(words);
                return config.get_named_logger_level() != null
                    && config.get_named_logger_level().containsKey("io.microburst.pagetest");
            } catch (Exception e) {
                return false;
            }
        });
        browser.click("#debug");
        browser.type("#debug-pct", "25");
        browser.click("#debug-confirm");
        browser.await("debug shown as on", () -> browser.text("#summary tbody td:nth-child(10)").equals("on, 25%"));
        browser.click("#stop-debug");
        browser.await("debug shown as off", () -> browser.text("#summary tbody td:nth-child(10)").equals("off"));
    }

    /** How the runtime runs an edge: "all" when every thread of the consumer also runs the producer (calls). */
    private static String fusion(String from, String to) throws Exception {
        int consumerThreads = 0;
        int fused = 0;
        for (ThreadView thread : server.cluster().getThreadViews(WORDS)) {
            Set<String> here = new HashSet<>();
            thread.tasks().forEach(t -> here.add(t.componentId()));
            if (here.contains(to)) {
                consumerThreads++;
                fused += here.contains(from) ? 1 : 0;
            }
        }
        return fused == 0 ? "none" : fused == consumerThreads ? "all" : "some";
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> nodes() {
        return (List<Map<String, Object>>) ((Map<String, Object>) browser.script("return window.microburstGraph.read()"))
            .get("nodes");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> edges() {
        return (List<Map<String, Object>>) ((Map<String, Object>) browser.script("return window.microburstGraph.read()"))
            .get("edges");
    }

    @SuppressWarnings("unchecked")
    private static List<String> chains() {
        return (List<String>) ((Map<String, Object>) browser.script("return window.microburstGraph.read()")).get("chains");
    }

    private static Map<String, Object> node(String component) {
        return nodes().stream().filter(n -> component.equals(n.get("component"))).findFirst()
            .orElseThrow(() -> new AssertionError("no node " + component + " in " + nodes()));
    }

    private static double number(Object value) {
        return value == null ? -1 : ((Number) value).doubleValue();
    }
}
