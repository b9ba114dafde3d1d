package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.server.MicroburstServer;
import io.microburst.server.web.RawHttp.Answer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a web page of another site cannot do through a browser, on each HTTP port (UI and REST API, logviewer, DRPC over
 * HTTP): read anything after rebinding its name to 127.0.0.1 (a foreign {@code Host}), or change state cross-origin;
 * while the server's own names, a configured name, same-origin requests and scripts without Origin keep working.
 */
@Timeout(120)
class OriginGuardTest {
    @TempDir
    static Path dir;
    private static MicroburstServer server;
    private static String token;

    @BeforeAll
    static void start() throws Exception {
        server = WebTestServer.start(dir);
        token = WebTestServer.token(server);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Each port, with a GET path that answers at once when the request is let through. */
    private static List<Map.Entry<Integer, String>> ports() {
        return List.of(Map.entry(server.uiPort(), "/"), Map.entry(server.logViewerPort(), "/api/v1/listLogs"),
            Map.entry(server.drpcHttpPort(), "/drpc/"));
    }

    @Test
    void aForeignHostIsRefusedOnEveryPortAndTheTokenIsNotShown() throws Exception {
        for (Map.Entry<Integer, String> port : ports()) {
            for (String host : List.of("attacker.example:" + port.getKey(), "attacker.example",
                "10.1.2.3:" + port.getKey(), "127.0.0.1.attacker.example:" + port.getKey())) {
                Answer answer = RawHttp.send(port.getKey(), "GET", port.getValue(), host, Map.of(), null);

                assertEquals(403, answer.status(), host + " on " + port + ": " + answer.body());
                assertTrue(answer.body().startsWith("Refused: Host '" + host + "' is not an address this server serves: "
                    + "use http://127.0.0.1:" + port.getKey() + "/"), answer.body());
                assertTrue(answer.body().contains("microburst.server.http.allowed.hosts"), answer.body());
                assertEquals(1, answer.body().strip().lines().count(), answer.body());
                assertFalse(answer.body().contains(token), "the token leaked to " + host);
            }
            Answer noHost = RawHttp.send(port.getKey(), "GET", port.getValue(), null, Map.of(), null);
            assertTrue(noHost.status() == 400 || noHost.status() == 403, noHost.toString());
        }
    }

    @Test
    void theServersOwnNamesAndAConfiguredNameAreServed() throws Exception {
        for (Map.Entry<Integer, String> port : ports()) {
            int p = port.getKey();
            for (String host : List.of("127.0.0.1:" + p, "localhost:" + p, "LocalHost:" + p, "[::1]:" + p, "127.0.0.1",
                "localhost:9090",
                WebTestServer.ALLOWED, WebTestServer.ALLOWED + ":" + p)) {
                Answer answer = RawHttp.send(p, "GET", port.getValue(), host, Map.of(), null);

                assertNotEquals(403, answer.status(), host + " on " + port + ": " + answer.body());
                assertFalse(answer.body().startsWith("Refused"), answer.body());
            }
        }
        Answer page = RawHttp.send(server.uiPort(), "GET", "/", "localhost:" + server.uiPort(), Map.of(), null);
        assertEquals(200, page.status());
        assertTrue(page.body().contains(token), "the page for the server's own name carries the token");
    }

    @Test
    void aCrossOriginPostIsRefusedOnEveryPortAndTheTopologyRuns() throws Exception {
        String id = WebTestServer.submit(server, "cross-origin");
        String host = "127.0.0.1:" + server.uiPort();
        for (Map<String, String> foreign : List.of(Map.of("Origin", "http://evil.example"),
            Map.of("Origin", "null"), Map.of("Origin", "http://127.0.0.1:" + server.logViewerPort()),
            Map.of("Origin", "https://evil.example", "Referer", "http://127.0.0.1:" + server.uiPort() + "/"),
            Map.of("Referer", "http://evil.example/page.html"))) {
            for (String method : List.of("POST", "PUT", "DELETE", "PATCH")) {
                Answer answer = RawHttp.send(server.uiPort(), method, "/api/v1/topology/" + id + "/kill/0", host,
                    with(foreign, "X-Microburst-Token", token), null);

                assertEquals(403, answer.status(), foreign + " " + method + ": " + answer.body());
                assertTrue(answer.body().startsWith("Refused: " + method + " from "), answer.body());
                assertTrue(answer.body().contains("is cross-origin"), answer.body());
            }
        }
        assertTrue(WebTestServer.running(server, "cross-origin"), "a refused kill left the topology running");
        assertEquals("ACTIVE", WebTestServer.status(server, "cross-origin"));

        for (Map.Entry<Integer, String> port : ports().subList(1, 3)) {
            String own = "127.0.0.1:" + port.getKey();
            Answer refused = RawHttp.send(port.getKey(), "POST", "/drpc/", own, Map.of("Origin", "http://evil.example"),
                "x");
            Answer sameOrigin = RawHttp.send(port.getKey(), "POST", "/drpc/", own, Map.of("Origin", "http://" + own), "x");
            assertEquals(403, refused.status(), port + ": " + refused.body());
            assertTrue(sameOrigin.status() == 404 || sameOrigin.status() == 405, port + ": " + sameOrigin);
        }
    }

    @Test
    void aSameOriginPostWithTheTokenWorksAndWithoutItSaysHowToPassIt() throws Exception {
        String id = WebTestServer.submit(server, "same-origin");
        String host = "localhost:" + server.uiPort();
        String path = "/api/v1/topology/" + id + "/deactivate";

        Answer noToken = RawHttp.send(server.uiPort(), "POST", path, host, Map.of(), null);
        Answer fromPage = RawHttp.send(server.uiPort(), "POST", path, host, Map.of("Origin", "http://" + host,
            "X-Microburst-Token", token), null);
        WebTestServer.awaitTrue(() -> statusIs("same-origin", "INACTIVE"));
        Answer fromScript = RawHttp.send(server.uiPort(), "POST", "/api/v1/topology/" + id + "/activate",
            WebTestServer.ALLOWED, Map.of("Referer", "http://" + WebTestServer.ALLOWED + "/topology.html",
                "X-Microburst-Token", token), null);

        assertEquals(403, noToken.status(), noToken.body());
        String advice = (String) ((Map<?, ?>) JSONValue.parse(noToken.body())).get("errorMessage");
        assertTrue(advice.contains("X-Microburst-Token header") && advice.contains(
            server.dataDir().resolve("ui-token").toString()), advice);
        assertEquals(200, fromPage.status(), fromPage.body());
        assertEquals("{\"topologyOperation\":\"deactivate\",\"topologyId\":\"" + id + "\",\"status\":\"success\"}",
            fromPage.body());
        assertEquals(200, fromScript.status(), fromScript.body());
        WebTestServer.awaitTrue(() -> statusIs("same-origin", "ACTIVE"));
    }

    private static boolean statusIs(String name, String status) {
        try {
            return status.equals(WebTestServer.status(server, name));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Map<String, String> with(Map<String, String> headers, String key, String value) {
        Map<String, String> all = new java.util.LinkedHashMap<>(headers);
        all.put(key, value);
        return all;
    }
}
