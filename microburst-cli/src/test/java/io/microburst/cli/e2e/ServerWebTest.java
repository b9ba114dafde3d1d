package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.microburst.cli.testsupport.TopologyJarBuilder;
import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import io.microburst.server.web.WebServer;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.storm.Config;
import org.apache.storm.generated.ComponentPageInfo;
import org.apache.storm.generated.ComponentType;
import org.apache.storm.generated.LogConfig;
import org.apache.storm.generated.LogLevel;
import org.apache.storm.generated.LogLevelAction;
import org.apache.storm.generated.TopologyPageInfo;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's web face with a topology running: the Storm UI REST API in Storm's documented shapes, the token that
 * state-changing requests need, the Prometheus scrape, and the pages as a browser renders them (headless Chromium from
 * Debian's {@code chromium} package; screenshots are kept in {@code target/screenshots/}).
 */
class ServerWebTest {
    private static final String TOPOLOGY = "web-greet";
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    @TempDir
    static Path dir;
    private static MicroburstServer server;
    private static String id;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void startServerWithATopology() throws Exception {
        Path jar = TopologyJarBuilder.build(ServerClassLoaderTest.sources("web"), Files.createDirectories(dir.resolve("jar")));
        server = MicroburstServer.start(Map.of(ServerConfig.DIR, dir.resolve("data").toString(),
            Config.NIMBUS_THRIFT_PORT, 0, ServerConfig.UI_PORT, 0));
        ServerClassLoaderTest.submit(jar, TOPOLOGY, dir.resolve("out.txt"), server.thriftPort());
        ServerClassLoaderTest.awaitLine(dir.resolve("out.txt"));
        id = server.cluster().getTopologySummaryByName(TOPOLOGY).get_id();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void stormUiRestApiAnswersInStormsShapes() throws Exception {
        Map<String, Object> cluster = getJson("/api/v1/cluster/summary");
        Map<String, Object> summary = getJson("/api/v1/topology/summary");
        Map<String, Object> topology = getJson("/api/v1/topology/" + id);
        Map<String, Object> bolt = getJson("/api/v1/topology/" + id + "/component/greet");

        assertEquals("2.8.3", cluster.get("stormVersion"));
        assertEquals(1, ((Number) cluster.get("topologies")).intValue());
        Map<?, ?> listed = (Map<?, ?>) ((List<?>) summary.get("topologies")).get(0);
        assertEquals(TOPOLOGY, listed.get("name"));
        assertEquals("ACTIVE", listed.get("status"));
        assertEquals(List.of("600", "10800", "86400", ":all-time"),
            ((List<?>) topology.get("topologyStats")).stream().map(s -> ((Map<?, ?>) s).get("window")).toList());
        Map<?, ?> spout = (Map<?, ?>) ((List<?>) topology.get("spouts")).get(0);
        assertEquals("once", spout.get("spoutId"));
        assertEquals(1L, ((Number) spout.get("emitted")).longValue());
        Map<?, ?> boltRow = (Map<?, ?>) ((List<?>) topology.get("bolts")).get(0);
        assertEquals("greet", boltRow.get("boltId"));
        assertEquals(1L, ((Number) boltRow.get("executed")).longValue());
        assertTrue(((Map<?, ?>) topology.get("configuration")).containsKey("topology.message.timeout.secs"));
        assertEquals("bolt", bolt.get("componentType"));
        assertEquals(1, ((List<?>) bolt.get("executorStats")).size());
        assertEquals(4, ((List<?>) bolt.get("boltStats")).size());
        assertEquals(404, get("/api/v1/topology/" + id + "/component/nope").statusCode());
        assertEquals(404, get("/api/v1/topology/absent-1-1").statusCode());
    }

    @Test
    void stateChangesNeedTheTokenAndReachTheTopology() throws Exception {
        String token = Files.readString(dir.resolve("data").resolve("ui-token"));

        assertEquals(403, post("/api/v1/topology/" + id + "/deactivate", null).statusCode());
        assertEquals(403, post("/api/v1/topology/" + id + "/deactivate", "wrong").statusCode());
        HttpResponse<String> deactivated = post("/api/v1/topology/" + id + "/deactivate", token);
        assertEquals(200, deactivated.statusCode(), deactivated.body());
        assertEquals("INACTIVE", server.cluster().getTopologySummaryByName(TOPOLOGY).get_status());
        assertEquals(200, post("/api/v1/topology/" + id + "/activate", token).statusCode());
        assertEquals("ACTIVE", server.cluster().getTopologySummaryByName(TOPOLOGY).get_status());
        assertTrue(deactivated.headers().firstValue("Access-Control-Allow-Origin").isEmpty());
    }

    @Test
    void prometheusScrapeHasPerTaskCounters() throws Exception {
        HttpResponse<String> scrape = get("/metrics");

        assertEquals(200, scrape.statusCode());
        assertTrue(scrape.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"), scrape.headers().toString());
        assertTrue(scrape.body().contains("microburst_executed_total{component=\"greet\",input=\"once:default\",task=\"2\","
            + "topology=\"" + TOPOLOGY + "\"} 1.0"), scrape.body());
        assertTrue(scrape.body().contains("microburst_emitted_total{component=\"once\",stream=\"default\",task=\"3\","
            + "topology=\"" + TOPOLOGY + "\"} 1.0"), scrape.body());
        assertTrue(scrape.body().contains("# TYPE microburst_topology_executors gauge"), scrape.body());
    }

    @Test
    void thriftPageInfosAndLogLevels() throws Exception {
        TopologyPageInfo page = server.nimbus().getTopologyPageInfo(id, ":all-time", false);
        ComponentPageInfo bolt = server.nimbus().getComponentPageInfo(id, "greet", ":all-time", false);
        LogConfig debug = new LogConfig();
        LogLevel level = new LogLevel(LogLevelAction.UPDATE);
        level.set_target_log_level("DEBUG");
        level.set_reset_log_level_timeout_secs(600);
        debug.put_to_named_logger_level("example.greet", level);
        server.nimbus().setLogConfig(id, debug);
        boolean debugOn = LogManager.getLogger("example.greet.GreetTopology").isDebugEnabled();
        LogConfig stored = server.nimbus().getLogConfig(id);
        LogConfig remove = new LogConfig();
        remove.put_to_named_logger_level("example.greet", new LogLevel(LogLevelAction.REMOVE));
        server.nimbus().setLogConfig(id, remove);

        assertEquals(TOPOLOGY, page.get_name());
        assertEquals(1L, page.get_id_to_bolt_agg_stats().get("greet").get_specific_stats().get_bolt().get_executed());
        assertEquals(1L, page.get_topology_stats().get_window_to_emitted().get(":all-time"));
        assertEquals(1, page.get_workers_size(), page.toString()); // storm-loadgen's CaptureLoad reads them
        assertEquals(2, page.get_workers().get(0).get_num_executors(), page.toString());
        assertEquals(Map.of("once", 1L, "greet", 1L), page.get_workers().get(0).get_component_to_num_tasks());
        assertEquals(ComponentType.BOLT, bolt.get_component_type());
        assertEquals(1, bolt.get_exec_stats_size());
        assertTrue(debugOn, "example.greet at DEBUG");
        assertEquals("DEBUG", stored.get_named_logger_level().get("example.greet").get_target_log_level());
        assertTrue(!LogManager.getLogger("example.greet.GreetTopology").isDebugEnabled(), "reset by REMOVE");
    }

    /** The pages as Chromium renders them, after their scripts read the API: values filled in, graph drawn. */
    @Test
    void pagesRenderInHeadlessChromium() throws Exception {
        String chromium = chromium();
        assumeTrue(chromium != null, "headless Chromium not found: install Debian's 'chromium' package (.ci/run does)");
        Files.createDirectories(SCREENSHOTS);

        String cluster = render(chromium, "/", "cluster");
        String topology = render(chromium, "/topology.html?id=" + id, "topology");
        String component = render(chromium, "/component.html?id=greet&topology_id=" + id, "component");

        assertTrue(cluster.contains(">" + TOPOLOGY + "</a>"), cluster);
        assertTrue(topology.contains("<span id=\"crumb\">/ " + TOPOLOGY + "</span>"), topology);
        assertTrue(topology.contains("data-id=\"layer2-node\""), "graph drawn\n" + topology);
        assertTrue(topology.contains(">greet</a>"), topology);
        assertTrue(topology.matches("(?s).*<td class=\"tasks\">[^<]*greet:2[^<]*</td>.*"), "threads shown\n" + topology);
        assertTrue(topology.contains("<div class=\"fill\""), "queue fill shown\n" + topology);
        assertTrue(topology.matches("(?s).*<td>greet</td><td>execute</td><td>1</td>.*<svg class=\"hist\".*"),
            "latency histogram shown\n" + topology);
        assertTrue(component.contains("<span id=\"crumb\">/ greet</span>") && component.contains("<td>bolt</td>"), component);
        assertTrue(Files.size(SCREENSHOTS.resolve("topology.png")) > 0);
    }

    private String render(String chromium, String path, String name) throws Exception {
        Path profile = Files.createTempDirectory(dir, "chromium-");
        String url = "http://127.0.0.1:" + server.uiPort() + path;
        List<String> flags = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + profile,
            "--window-size=1280,1000", "--virtual-time-budget=5000");
        List<String> shot = new ArrayList<>(List.of(chromium));
        shot.addAll(flags);
        shot.addAll(List.of("--screenshot=" + SCREENSHOTS.resolve(name + ".png").toAbsolutePath(), url));
        run(shot, dir.resolve(name + "-shot.txt"));
        List<String> dump = new ArrayList<>(List.of(chromium));
        dump.addAll(flags);
        dump.addAll(List.of("--dump-dom", url));
        return run(dump, dir.resolve(name + "-dom.html"));
    }

    private static String run(List<String> command, Path out) throws Exception {
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                throw new AssertionError("chromium did not finish: " + command);
            }
            assertEquals(0, process.exitValue(), command.toString());
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            process.destroyForcibly();
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

    @SuppressWarnings("unchecked")
    private Map<String, Object> getJson(String path) throws Exception {
        HttpResponse<String> response = get(path);
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        return (Map<String, Object>) JSONValue.parse(response.body());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.uiPort() + path)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.uiPort() + path))
            .POST(HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            request.header(WebServer.TOKEN_HEADER, token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
