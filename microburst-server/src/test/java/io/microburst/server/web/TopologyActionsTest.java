package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * The POST actions of Storm's UI REST API ({@code STORM-UI-REST-API.md}) at Storm's paths, with Storm's bodies and
 * answers: {@code activate}, {@code deactivate}, {@code kill/:wait-time}, {@code rebalance/:wait-time} with Storm's
 * documented rebalance body, and Storm's error JSON for what is wrong.
 */
@Timeout(120)
class TopologyActionsTest {
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

    private static Answer post(String path, String body) throws Exception {
        return RawHttp.send(server.uiPort(), "POST", path, "127.0.0.1:" + server.uiPort(),
            Map.of("X-Microburst-Token", token, "Content-Type", "application/json"), body);
    }

    private static String operation(String what, String id) {
        return "{\"topologyOperation\":\"" + what + "\",\"topologyId\":\"" + id + "\",\"status\":\"success\"}";
    }

    @Test
    void activateAndDeactivateAnswerStormsJson() throws Exception {
        String id = WebTestServer.submit(server, "switched");

        Answer deactivated = post("/api/v1/topology/" + id + "/deactivate", null);
        WebTestServer.awaitTrue(() -> statusIs("switched", "INACTIVE"));
        Answer activated = post("/api/v1/topology/" + id + "/activate", null);
        WebTestServer.awaitTrue(() -> statusIs("switched", "ACTIVE"));

        assertEquals(200, deactivated.status(), deactivated.body());
        assertEquals(operation("deactivate", id), deactivated.body());
        assertEquals(operation("activate", id), activated.body());
    }

    @Test
    void stormsDocumentedRebalanceBodyWithCountsAsStringsAndNumbersIsHonoured() throws Exception {
        String id = WebTestServer.submit(server, "rebalanced");

        Answer answer = post("/api/v1/topology/" + id + "/rebalance/0", "{\"rebalanceOptions\": {\"numWorkers\": 1, "
            + "\"executors\": { \"spout\" : \"3\", \"split\": 2, \"count\": 1 }}, \"callback\":\"foo\"}");

        assertEquals(200, answer.status(), answer.body());
        assertEquals(operation("rebalance", id), answer.body());
        WebTestServer.awaitTrue(() -> executors(id, "spout") == 3 && executors(id, "split") == 2);
        assertEquals(200, post("/api/v1/topology/" + id + "/rebalance/0", "").status(), "an empty body: no changes");
    }

    @Test
    void aBadRebalanceBodyAnswersStormsErrorJsonWith400NamingTheProblem() throws Exception {
        String id = WebTestServer.submit(server, "unchanged");
        Map<String, String> cases = Map.of(
            "garbage", "is not JSON",
            "[1, 2]", "must be a JSON object",
            "{\"rebalanceOptions\": 3}", "rebalanceOptions that is not an object",
            "{\"rebalanceOptions\": {\"executors\": {\"spout\": \"many\"}}}", "executors of 'spout' = \"many\"",
            "{\"rebalanceOptions\": {\"executors\": {\"spout\": 0}}}", "executors of 'spout' = 0, must be 1 or more",
            "{\"rebalanceOptions\": {\"numWorker\": 2}}", "unknown rebalance option 'numWorker'",
            "{\"rebalanceOptions\": {\"numWorkers\": 1.5}}", "numWorkers = 1.5, not a whole number");
        for (Map.Entry<String, String> bad : cases.entrySet()) {
            Answer answer = post("/api/v1/topology/" + id + "/rebalance/0", bad.getKey());
            Map<?, ?> json = (Map<?, ?>) JSONValue.parse(answer.body());

            assertEquals(400, answer.status(), bad.getKey() + ": " + answer.body());
            assertEquals("400 Bad Request", json.get("error"), answer.body());
            String message = (String) json.get("errorMessage");
            assertTrue(message.startsWith("the rebalance request for topology '" + id + "' "), message);
            assertTrue(message.contains(bad.getValue()), bad.getKey() + ": " + message);
            assertTrue(message.contains("\"rebalanceOptions\""), "says what to send: " + message);
        }
        assertEquals(1, executors(id, "spout"), "nothing was rebalanced");
    }

    @Test
    void killTakesStormsWaitTimeAndAPathWithoutItIsNotAKill() throws Exception {
        String id = WebTestServer.submit(server, "killed");

        Answer noWait = post("/api/v1/topology/" + id + "/kill", null);
        Answer badWait = post("/api/v1/topology/" + id + "/kill/soon", null);
        Answer oldRebalance = post("/api/v1/topology/" + id + "/rebalance", null);
        assertEquals(404, noWait.status(), noWait.body());
        assertTrue(message(noWait).contains("Storm's path is /api/v1/topology/" + id + "/kill/WAIT_SECONDS"),
            noWait.body());
        assertEquals(404, oldRebalance.status(), oldRebalance.body());
        assertEquals(400, badWait.status(), badWait.body());
        assertTrue(message(badWait).contains("'soon'"), badWait.body());
        assertEquals("ACTIVE", WebTestServer.status(server, "killed"), "none of these killed it");

        Answer killed = post("/api/v1/topology/" + id + "/kill/0", null);
        assertEquals(200, killed.status(), killed.body());
        assertEquals(operation("kill", id), killed.body());
        WebTestServer.awaitTrue(() -> !WebTestServer.running(server, "killed"));

        Answer gone = post("/api/v1/topology/" + id + "/kill/0", null);
        assertEquals(404, gone.status(), gone.body());
        assertEquals("404 Not Found", ((Map<?, ?>) JSONValue.parse(gone.body())).get("error"));
    }

    @Test
    void theKillButtonsWaitIsAStormPath() throws Exception {
        String script = RawHttp.send(server.uiPort(), "GET", "/topology.js", "127.0.0.1:" + server.uiPort(), Map.of(),
            null).body();
        for (String action : List.of("'/activate'", "'/deactivate'", "'/kill/' + M.wholeNumber(", "'/rebalance/' + wait")) {
            assertTrue(script.contains("post(base + " + action), action);
        }
    }

    private static String message(Answer answer) {
        return (String) ((Map<?, ?>) JSONValue.parse(answer.body())).get("errorMessage");
    }

    private static boolean statusIs(String name, String status) {
        try {
            return status.equals(WebTestServer.status(server, name));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static int executors(String id, String component) {
        try {
            Answer topology = RawHttp.send(server.uiPort(), "GET", "/api/v1/topology/" + id, "127.0.0.1:"
                + server.uiPort(), Map.of(), null);
            Map<String, Object> json = (Map<String, Object>) JSONValue.parse(topology.body());
            for (String kind : List.of("spouts", "bolts")) {
                for (Map<String, Object> row : (List<Map<String, Object>>) json.get(kind)) {
                    if (component.equals(row.get(kind.equals("spouts") ? "spoutId" : "boltId"))) {
                        return ((Number) row.get("executors")).intValue();
                    }
                }
            }
            throw new AssertionError("no component " + component + " in " + topology.body());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
