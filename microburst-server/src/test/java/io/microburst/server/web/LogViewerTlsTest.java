package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.server.MicroburstServer;
import io.microburst.server.web.RawHttp.Answer;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The logviewer over HTTPS with Storm's {@code logviewer.https.*} keys (named here as Storm spells them) and a keystore
 * made by keytool, the UI on plain HTTP: a client that trusts the certificate reads the logs, one that does not is
 * refused by TLS; with Storm's default {@code logviewer.disable.http.binding} there is no plain HTTP; the REST API's
 * log links, {@code logviewerScheme} and {@code logviewerPort} name the HTTPS port; Host checks hold over TLS; a
 * keystore that cannot be opened stops the start in one line naming the logviewer's key.
 */
@Timeout(120)
class LogViewerTlsTest {
    private static final String PASSWORD = "logs-secret";
    @TempDir
    static Path dir;
    private static Path keystore;
    private static SSLContext trusting;
    private static MicroburstServer server;

    @BeforeAll
    static void start() throws Exception {
        keystore = TestTls.keystore(dir, "logviewer.p12", "PKCS12", PASSWORD, PASSWORD, List.of("127.0.0.1"));
        trusting = TestTls.trusting(keystore, "PKCS12", PASSWORD);
        server = TestTls.start(TestTls.conf(dir.resolve("data"), Map.of("logviewer.https.keystore.path", keystore.toString(),
            "logviewer.https.keystore.password", PASSWORD)), TlsSettings.LOGVIEWER);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static HttpResponse<String> https(SSLContext context, String url) throws Exception {
        return HttpClient.newBuilder().sslContext(context).build().send(HttpRequest.newBuilder(URI.create(url)).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> rest(String path) throws Exception {
        Answer answer = RawHttp.send(server.uiPort(), "GET", path, "127.0.0.1:" + server.uiPort(), Map.of(), null);
        assertEquals(200, answer.status(), path + ": " + answer.body());
        return (Map<String, Object>) JSONValue.parse(answer.body());
    }

    @Test
    void aClientThatTrustsTheCertificateReadsTheLogsAndPlainHttpIsOff() throws Exception {
        int port = server.logViewerHttpsPort();
        assertTrue(port > 0, "the logviewer listens on logviewer.https.port");
        assertEquals(-1, server.logViewerPort(), "logviewer.disable.http.binding is true in Storm's defaults");
        assertEquals("https://127.0.0.1:" + port + "/", server.logViewerUrl());

        HttpResponse<String> listed = https(trusting, "https://127.0.0.1:" + port + "/api/v1/listLogs");
        assertEquals(200, listed.statusCode(), listed.body());
        assertThrows(javax.net.ssl.SSLHandshakeException.class,
            () -> https(SSLContext.getDefault(), "https://127.0.0.1:" + port + "/api/v1/listLogs"));

        for (String host : List.of("attacker.example:" + port, "attacker.example")) {
            Answer refused = RawHttp.send(trusting.getSocketFactory(), "127.0.0.1", port, "GET", "/api/v1/listLogs",
                host, Map.of(), null);
            assertEquals(403, refused.status(), host + ": " + refused.body());
            assertTrue(refused.body().startsWith("Refused: Host '" + host + "'"), refused.body());
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theRestApisLogLinksPointAtTheHttpsLogviewerAndServeTheLog() throws Exception {
        String id = WebTestServer.submit(server, "tls-logs");
        int port = server.logViewerHttpsPort();

        Map<String, Object> workers = rest("/api/v1/topology-workers/" + id);
        assertEquals("https", workers.get("logviewerScheme"));
        assertEquals(port, ((Number) workers.get("logviewerPort")).intValue());
        Map<String, Object> supervisors = rest("/api/v1/supervisor/summary");
        assertEquals("https", supervisors.get("logviewerScheme"));
        assertEquals(port, ((Number) supervisors.get("logviewerPort")).intValue());
        String nimbusLog = (String) ((List<Map<String, Object>>) rest("/api/v1/nimbus/summary").get("nimbuses")).get(0)
            .get("nimbusLogLink");
        assertTrue(nimbusLog.startsWith("https://127.0.0.1:" + port + "/api/v1/daemonlog"), nimbusLog);

        List<Map<String, Object>> rows = (List<Map<String, Object>>) rest("/api/v1/topology/" + id).get("workers");
        String workerLog = (String) rows.get(0).get("workerLogLink");
        // the worker's host as the executors report it, the logviewer's HTTPS port
        assertTrue(workerLog.matches("https://(localhost|127\\.0\\.0\\.1):" + port + "/api/v1/log\\?file="
            + id + "%2F\\d+%2Fworker\\.log"), workerLog);
        Map<String, Object> component = rest("/api/v1/topology/" + id + "/component/split");
        String executorLog = (String) ((List<Map<String, Object>>) component.get("executorStats")).get(0)
            .get("workerLogLink");
        assertEquals(workerLog, executorLog);
        String eventLog = (String) component.get("eventLogLink");
        assertTrue(eventLog.matches("https://(localhost|127\\.0\\.0\\.1):" + port + "/api/v1/log\\?file=.*"),
            eventLog);

        // the link serves the file it names (a topology submitted in-process writes no worker log, so one is put there)
        String file = URLDecoder.decode(workerLog.substring(workerLog.indexOf("file=") + 5), StandardCharsets.UTF_8);
        Path log = server.workerLogsDir().resolve(file);
        Files.createDirectories(log.getParent());
        Files.writeString(log, "2026-01-01 00:00:00.000 a line of " + id + "\n");
        HttpResponse<String> page = https(trusting, workerLog);
        assertEquals(200, page.statusCode(), page.body());
        assertTrue(page.body().contains("a line of " + id), page.body());

        Map<String, Object> conf = rest("/api/v1/cluster/configuration");
        assertEquals("*****", conf.get("logviewer.https.keystore.password"), "passwords are masked");
        assertEquals(port, ((Number) conf.get("logviewer.https.port")).intValue());
    }

    @Test
    void plainHttpIsKeptWhenStormsKeySaysSoAndTheLinksStillNameHttps() throws Exception {
        Map<String, Object> conf = TestTls.conf(dir.resolve("both"), Map.of("logviewer.https.keystore.path",
            keystore.toString(), "logviewer.https.keystore.password", PASSWORD, "logviewer.disable.http.binding", false));
        try (MicroburstServer both = TestTls.start(conf, TlsSettings.LOGVIEWER)) {
            assertTrue(both.logViewerPort() > 0, "plain HTTP kept");
            Answer plain = RawHttp.send(both.logViewerPort(), "GET", "/api/v1/listLogs", "127.0.0.1:"
                + both.logViewerPort(), Map.of(), null);
            assertEquals(200, plain.status(), plain.body());
            Answer summary = RawHttp.send(both.uiPort(), "GET", "/api/v1/supervisor/summary", "127.0.0.1:"
                + both.uiPort(), Map.of(), null);
            assertTrue(summary.body().contains("\"logviewerScheme\":\"https\""), summary.body());
            assertTrue(summary.body().contains("\"logviewerPort\":" + both.logViewerHttpsPort()), summary.body());
        }
    }

    @Test
    void aKeystoreThatCannotBeOpenedStopsTheStartInOneLineNamingTheLogviewersKey() throws Exception {
        Path jks = TestTls.keystore(dir, "key-password.jks", "JKS", PASSWORD, "key-secret", List.of("127.0.0.1"));
        Map<Map<String, Object>, String> cases = Map.of(
            Map.of("logviewer.https.keystore.path", dir.resolve("missing.p12").toString(),
                "logviewer.https.keystore.password", PASSWORD),
            "logviewer.https.keystore.path: no file " + dir.resolve("missing.p12"),
            Map.of("logviewer.https.keystore.path", keystore.toString(), "logviewer.https.keystore.password", "guessed"),
            "logviewer.https.keystore.password does not open the keystore " + keystore,
            Map.of("logviewer.https.keystore.path", jks.toString(), "logviewer.https.keystore.password", PASSWORD,
                "logviewer.https.keystore.type", "JKS", "logviewer.https.key.password", "guessed"),
            "logviewer.https.key.password does not open the key 'ui' in " + jks,
            Map.of("logviewer.https.keystore.path", keystore.toString(), "logviewer.https.keystore.password", PASSWORD,
                "logviewer.https.keystore.type", "BOGUS"),
            "logviewer.https.keystore.type 'BOGUS' is not a keystore type",
            Map.of("logviewer.https.keystore.password", PASSWORD),
            "logviewer.https.port is 8443 but logviewer.https.keystore.path is not set",
            Map.of("logviewer.https.keystore.path", keystore.toString(), "logviewer.https.keystore.password", PASSWORD,
                "logviewer.https.want.client.auth", true),
            "logviewer.https.want.client.auth is true but logviewer.https.truststore.path");
        for (Map.Entry<Map<String, Object>, String> c : cases.entrySet()) {
            Map<String, Object> conf = TestTls.conf(dir.resolve("refused"), c.getKey());
            conf.put("logviewer.https.port", 8443);

            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> MicroburstServer.start(conf).close(), c.getValue());
            assertTrue(refused.getMessage().startsWith(c.getValue()), refused.getMessage());
            assertEquals(1, refused.getMessage().lines().count(), refused.getMessage());
            assertFalse(refused.getMessage().matches(".*\\b(java|javax|sun)\\.[a-z]+\\..*"), refused.getMessage());
        }
    }
}
