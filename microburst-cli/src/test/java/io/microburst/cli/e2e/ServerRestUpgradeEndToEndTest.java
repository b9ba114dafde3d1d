package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.Main;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import io.microburst.server.web.WebServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upgrade and rollback through the web port ({@code POST /api/v1/topology/ID/upgrade} with the jar as the body,
 * {@code .../rollback}) against a {@code microburst server} in this JVM, with a counting topology built from source
 * ({@link UpgradeCountingSource}) whose new version changes its bolt: the count is carried in the RocksDB state (the
 * new version goes on from the old one's last count), an upgrade whose bolt's state type changed is refused with 400
 * naming the component while the old version runs on, bad requests are 400 without starting anything, and the
 * rollback returns to the first version, state carried again. {@code -Dmicroburst.upgrade.repeat=20} runs it 20 times.
 */
@Timeout(3600)
class ServerRestUpgradeEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void upgradeRefuseAndRollBackThroughTheWebPort() throws Exception {
        Path jar = TopologyJarBuilder.build(UpgradeCountingSource.sources(), Files.createDirectories(dir.resolve("build")));
        for (int i = 0; i < Integer.getInteger("microburst.upgrade.repeat", 1); i++) {
            runOnce(jar, dir.resolve("run-" + i));
        }
    }

    private void runOnce(Path jar, Path dir) throws Exception {
        Path data = dir.resolve("data");
        try (MicroburstServer server = MicroburstServer.start(Map.of(ServerConfig.DIR, data.toString(),
            Config.NIMBUS_THRIFT_PORT, 0, ServerConfig.UI_PORT, 0))) {
            Path record = dir.resolve("record.txt");
            String state = dir.resolve("state").toString();
            String token = Files.readString(data.resolve("ui-token"));
            submit(server, jar, record.toString(), state);
            awaitLine(record, "v1 a=" + UpgradeCountingSource.WORDS);
            TopologySummary first = summary(server);
            String path = "/api/v1/topology/" + first.get_id();

            HttpResponse<String> noMain = post(server, path + "/upgrade?wait=5", token, Files.readAllBytes(jar));
            assertEquals(400, noMain.statusCode(), noMain.body());
            assertTrue(error(noMain).startsWith("upgrade: parameter main must name"), noMain.body());
            HttpResponse<String> notJar = post(server, path + "/upgrade?" + query(record, state, "v2"), token,
                "not a jar".getBytes(StandardCharsets.UTF_8));
            assertEquals(400, notJar.statusCode(), notJar.body());
            assertTrue(error(notJar).contains("the upload is not a jar"), notJar.body());
            HttpResponse<String> notJarForm = multipart(server, path + "/upgrade?" + query(record, state, "v2"), token,
                "jar", "not a jar");
            assertEquals(400, notJarForm.statusCode(), notJarForm.body());
            assertTrue(error(notJarForm).contains("the upload is not a jar"), notJarForm.body());
            HttpResponse<String> noFile = multipart(server, path + "/upgrade?" + query(record, state, "v2"), token,
                null, "text");
            assertEquals(400, noFile.statusCode(), noFile.body());
            assertTrue(error(noFile).contains("has no file part"), noFile.body());
            assertEquals(403, post(server, path + "/upgrade?" + query(record, state, "v2"), null,
                Files.readAllBytes(jar)).statusCode());

            HttpResponse<String> upgraded = post(server, path + "/upgrade?" + query(record, state, "v2"), token,
                Files.readAllBytes(jar));
            assertEquals(200, upgraded.statusCode(), upgraded.body());
            Map<?, ?> answer = (Map<?, ?>) JSONValue.parse(upgraded.body());
            assertEquals(2, ((Number) answer.get("version")).intValue(), upgraded.body());
            assertEquals(first.get_id(), answer.get("previousTopologyId"));
            String secondId = summary(server).get_id();
            assertEquals(secondId, answer.get("topologyId"));
            assertNotEquals(first.get_id(), secondId);
            assertTrue(((Number) answer.get("outputGapMs")).longValue() >= 0, upgraded.body());
            awaitLine(record, "v2 a=" + 2 * UpgradeCountingSource.WORDS);
            assertCarried(record, "v2");

            HttpResponse<String> refused = post(server, "/api/v1/topology/" + secondId + "/upgrade?"
                + query(record, state, "text"), token, Files.readAllBytes(jar));
            assertEquals(400, refused.statusCode(), refused.body());
            assertTrue(error(refused).startsWith("Upgrade of topology 'counting' refused: component 'count'"),
                refused.body());
            assertTrue(error(refused).contains("state"), refused.body());
            assertEquals(secondId, summary(server).get_id(), "the old version runs on");
            assertEquals("ACTIVE", summary(server).get_status());

            HttpResponse<String> rolledBack = post(server, "/api/v1/topology/" + secondId + "/rollback", token,
                new byte[0]);
            assertEquals(200, rolledBack.statusCode(), rolledBack.body());
            assertEquals(3, ((Number) ((Map<?, ?>) JSONValue.parse(rolledBack.body())).get("version")).intValue());
            awaitLine(record, "v1 a=" + 3 * UpgradeCountingSource.WORDS);
            assertCarried(record, "v1");
        }
    }

    /** The last version's first count is one more than the count before it: the state was carried, not restarted. */
    private static void assertCarried(Path record, String variant) throws Exception {
        List<String> lines = Files.readAllLines(record);
        int first = lines.size() - 1;
        while (first > 0 && lines.get(first - 1).startsWith(variant + " ")) {
            first--;
        }
        assertTrue(first > 0, "an earlier version counted: " + lines);
        assertEquals(count(lines.get(first - 1)) + 1, count(lines.get(first)), "the new version's bolt goes on from "
            + "the old version's count (its state was carried): " + lines.subList(first - 1, first + 1));
    }

    private static long count(String line) {
        return Long.parseLong(line.substring(line.indexOf('=') + 1));
    }

    private static String query(Path record, String state, String variant) {
        return "main=" + UpgradeCountingSource.MAIN_CLASS + "&wait=5" + "&args=" + enc(record.toString()) + "&args="
            + enc(state) + "&args=" + variant;
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String error(HttpResponse<String> response) {
        return String.valueOf(((Map<?, ?>) JSONValue.parse(response.body())).get("errorMessage"));
    }

    /** Waits until the record file has {@code line}; answers its index. */
    private static int awaitLine(Path record, String line) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(record)) {
                int at = Files.readAllLines(record).indexOf(line);
                if (at >= 0) {
                    return at;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no line '" + line + "' in " + record + " after " + WAIT + ": "
            + (Files.exists(record) ? Files.readAllLines(record) : "no file"));
    }

    private static void submit(MicroburstServer server, Path jar, String record, String state) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(new String[] {"submit", "-c", "nimbus.seeds=[\"127.0.0.1\"]", "-c",
            "nimbus.thrift.port=" + server.thriftPort(), jar.toString(), UpgradeCountingSource.MAIN_CLASS, record,
            state, "v1"}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
    }

    private static TopologySummary summary(MicroburstServer server) throws Exception {
        return server.cluster().getTopologySummaryByName(UpgradeCountingSource.NAME);
    }

    /** A form with one part: a file named {@code file} when given, else a plain field. */
    private HttpResponse<String> multipart(MicroburstServer server, String path, String token, String file,
                                           String content) throws Exception {
        String boundary = "b0undary" + System.nanoTime();
        String part = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + (file != null ? file
            + "\"; filename=\"new.jar\"\r\nContent-Type: application/java-archive" : "note\"") + "\r\n\r\n"
            + content + "\r\n--" + boundary + "--\r\n";
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.uiPort() + path))
            .header("Content-Type", "multipart/form-data; boundary=" + boundary).header(WebServer.TOKEN_HEADER, token)
            .POST(HttpRequest.BodyPublishers.ofString(part)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(MicroburstServer server, String path, String token, byte[] body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.uiPort() + path))
            .header("Content-Type", "application/java-archive").POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (token != null) {
            request.header(WebServer.TOKEN_HEADER, token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

}
