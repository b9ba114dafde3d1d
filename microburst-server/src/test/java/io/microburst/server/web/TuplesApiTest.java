package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.server.MicroburstServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/v1/topology/ID/tuples}: on an acked topology with a bolt that fails some tuples and one that stalls,
 * the pending trees are grouped at the stalling task with their ages and message ids, and the recent ones name why
 * they ended: failed by the failing bolt, timed out at the stalling one. An unknown topology is a 404 naming it.
 */
class TuplesApiTest {
    @TempDir
    Path dir;
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    @SuppressWarnings("unchecked")
    void pendingTreesByHoldingTaskAndRecentFailuresWithWhy() throws Exception {
        try (MicroburstServer server = WebTestServer.start(dir)) {
            String id = StallingTopology.submit(server, "tuples-api");
            try {
                String staller = "staller:" + taskOf(server, "staller");
                String failer = "failer:" + taskOf(server, "failer");
                AtomicReference<Map<String, Object>> last = new AtomicReference<>();
                WebTestServer.awaitTrue(() -> {
                    Map<String, Object> json = tuples(server, id);
                    last.set(json);
                    List<Map<String, Object>> pending = (List<Map<String, Object>>) json.get("pending");
                    List<Map<String, Object>> recent = (List<Map<String, Object>>) json.get("recent");
                    return pending.stream().anyMatch(g -> staller.equals(g.get("task")))
                        && recent.stream().anyMatch(e -> ("failed by " + failer).equals(e.get("reason")))
                        && recent.stream().anyMatch(e -> String.valueOf(e.get("reason"))
                            .matches("timed out while (queued|executing) at " + staller));
                });
                Map<String, Object> json = last.get();
                assertEquals("tuples-api", json.get("name"));
                Map<String, Object> held = ((List<Map<String, Object>>) json.get("pending")).stream()
                    .filter(g -> staller.equals(g.get("task"))).findFirst().orElseThrow();
                List<Map<String, Object>> sample = (List<Map<String, Object>>) held.get("sample");
                assertTrue(((Number) held.get("count")).intValue() >= sample.size() && !sample.isEmpty(), held.toString());
                for (Map<String, Object> tree : sample) {
                    assertTrue(((String) tree.get("rootId")).matches("-?\\d+"), tree.toString());
                    assertTrue(Integer.parseInt((String) tree.get("messageId")) % 4 != 1, "failed ones never stall: " + tree);
                    assertTrue(((Number) tree.get("ageMs")).longValue() >= 0, tree.toString());
                    assertTrue(tree.get("spoutTask").toString().startsWith("numbers:"), tree.toString());
                }
                for (Map<String, Object> e : (List<Map<String, Object>>) json.get("recent")) {
                    if (e.get("reason").toString().startsWith("failed by")) {
                        assertEquals(1, Integer.parseInt((String) e.get("messageId")) % 4, e.toString());
                        assertEquals(failer, e.get("lastHolder"));
                    }
                    assertEquals("numbers", e.get("spout"));
                }
                HttpResponse<String> unknown = get(server, "/api/v1/topology/no-such-1-1/tuples");
                assertEquals(404, unknown.statusCode());
                assertTrue(unknown.body().contains("no-such-1-1"), unknown.body());
            } finally {
                StallingTopology.release("tuples-api");
            }
        }
    }

    private static int taskOf(MicroburstServer server, String component) throws Exception {
        return server.cluster().getTaskStats("tuples-api").stream().filter(t -> t.componentId().equals(component))
            .findFirst().orElseThrow().taskId();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> tuples(MicroburstServer server, String id) {
        try {
            HttpResponse<String> r = get(server, "/api/v1/topology/" + id + "/tuples");
            assertEquals(200, r.statusCode(), r.body());
            return (Map<String, Object>) JSONValue.parse(r.body());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private HttpResponse<String> get(MicroburstServer server, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.uiPort() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    }
}
