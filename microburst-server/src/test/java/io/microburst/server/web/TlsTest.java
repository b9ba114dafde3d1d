package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.server.MicroburstServer;
import io.microburst.server.web.RawHttp.Answer;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
 * The web port over HTTPS with Storm's {@code ui.https.*} keys and a keystore made by keytool: a client that trusts its
 * certificate reads the REST API; the Host and Origin checks and the token hold over TLS as over HTTP; with Storm's
 * default {@code ui.disable.http.binding} there is no plain HTTP; a keystore that cannot be opened stops the start
 * with one line naming the key.
 */
@Timeout(120)
class TlsTest {
    private static final String PASSWORD = "store-secret";
    @TempDir
    static Path dir;
    private static Path keystore;
    private static SSLContext trusting;
    private static MicroburstServer server;
    private static String token;

    @BeforeAll
    static void start() throws Exception {
        keystore = TestTls.keystore(dir, "ui.p12", "PKCS12", PASSWORD, PASSWORD, List.of("127.0.0.1"));
        trusting = TestTls.trusting(keystore, "PKCS12", PASSWORD);
        server = TestTls.start(TestTls.conf(dir.resolve("data"), Map.of(TlsSettings.KEYSTORE_PATH, keystore.toString(),
            TlsSettings.KEYSTORE_PASSWORD, PASSWORD)));
        token = WebTestServer.token(server);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static Answer https(String method, String path, String host, Map<String, String> headers) throws Exception {
        return RawHttp.send(trusting.getSocketFactory(), "127.0.0.1", server.uiHttpsPort(), method, path, host, headers,
            null);
    }

    @Test
    void aClientThatTrustsTheCertificateReadsTheRestApiOverTls() throws Exception {
        HttpClient client = HttpClient.newBuilder().sslContext(trusting).build();
        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:"
            + server.uiHttpsPort() + "/api/v1/cluster/summary")).build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(200, answer.statusCode(), answer.body());
        Map<?, ?> summary = (Map<?, ?>) JSONValue.parse(answer.body());
        assertEquals(1, ((Number) summary.get("supervisors")).intValue(), answer.body());
        assertTrue(summary.containsKey("stormVersion"), answer.body());
        assertEquals("https://127.0.0.1:" + server.uiHttpsPort() + "/", server.pagesUrl());

        HttpResponse<String> configuration = client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:"
            + server.uiHttpsPort() + "/api/v1/cluster/configuration")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, configuration.statusCode(), configuration.body());
        Map<?, ?> conf = (Map<?, ?>) JSONValue.parse(configuration.body());
        assertEquals(keystore.toString(), conf.get(TlsSettings.KEYSTORE_PATH));
        assertEquals("*****", conf.get(TlsSettings.KEYSTORE_PASSWORD), "passwords are masked, as in Storm's logs");
        assertFalse(configuration.body().contains(PASSWORD), configuration.body());
    }

    @Test
    void plainHttpIsOffAsWithStormsDefaults() throws Exception {
        assertEquals(-1, server.uiPort(), "ui.disable.http.binding is true in Storm's defaults");
        // a client that does not trust the certificate is refused by TLS itself
        HttpClient untrusting = HttpClient.newHttpClient();
        assertThrows(javax.net.ssl.SSLHandshakeException.class, () -> untrusting.send(HttpRequest.newBuilder(
            URI.create("https://127.0.0.1:" + server.uiHttpsPort() + "/")).build(), HttpResponse.BodyHandlers.ofString()));
        // nor does plain HTTP get a page on the HTTPS port: only a TLS alert comes back
        try (Socket plain = new Socket("127.0.0.1", server.uiHttpsPort())) {
            plain.setSoTimeout(60_000);
            plain.getOutputStream().write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
            String answer = new String(plain.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertFalse(answer.startsWith("HTTP/"), answer);
            assertFalse(answer.contains(token));
        }
    }

    @Test
    void aForeignHostIsRefusedOverTlsAndTheTokenIsNotShown() throws Exception {
        int port = server.uiHttpsPort();
        for (String host : List.of("attacker.example:" + port, "attacker.example", "10.1.2.3:" + port)) {
            Answer answer = https("GET", "/", host, Map.of());

            assertEquals(403, answer.status(), host + ": " + answer.body());
            assertTrue(answer.body().startsWith("Refused: Host '" + host + "' is not an address this server serves: use "
                + "https://127.0.0.1:" + port + "/ or https://localhost:" + port + "/"), answer.body());
            assertEquals(1, answer.body().strip().lines().count(), answer.body());
            assertFalse(answer.body().contains(token), "the token leaked to " + host);
        }
        Answer own = https("GET", "/", "localhost:" + port, Map.of());
        assertEquals(200, own.status(), own.body());
        assertTrue(own.body().contains(token), "the server's own page carries the token");
    }

    @Test
    void aCrossOriginPostIsRefusedOverTlsAndASameOriginOneWithTheTokenActs() throws Exception {
        String id = WebTestServer.submit(server, "tls-actions");
        String host = "127.0.0.1:" + server.uiHttpsPort();
        String kill = "/api/v1/topology/" + id + "/kill/0";
        for (String origin : List.of("https://evil.example", "null", "http://" + host,
            "https://127.0.0.1:" + server.logViewerPort())) {
            Answer answer = https("POST", kill, host, Map.of("Origin", origin, "X-Microburst-Token", token));

            assertEquals(403, answer.status(), origin + ": " + answer.body());
            assertTrue(answer.body().startsWith("Refused: POST from Origin '" + origin + "' is cross-origin"),
                answer.body());
        }
        assertTrue(WebTestServer.running(server, "tls-actions"), "a refused kill left the topology running");

        Answer noToken = https("POST", "/api/v1/topology/" + id + "/deactivate", host, Map.of("Origin", "https://" + host));
        Answer withToken = https("POST", "/api/v1/topology/" + id + "/deactivate", host,
            Map.of("Origin", "https://" + host, "X-Microburst-Token", token));
        assertEquals(403, noToken.status(), noToken.body());
        assertEquals(200, withToken.status(), withToken.body());
        WebTestServer.awaitTrue(() -> {
            try {
                return "INACTIVE".equals(WebTestServer.status(server, "tls-actions"));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    @Test
    void aKeystoreThatCannotBeOpenedStopsTheStartInOneLineNamingTheKey() throws Exception {
        Path jks = TestTls.keystore(dir, "key-password.jks", "JKS", PASSWORD, "key-secret", List.of("127.0.0.1"));
        Map<Map<String, Object>, String> cases = Map.of(
            Map.of(TlsSettings.KEYSTORE_PATH, dir.resolve("missing.p12").toString(), TlsSettings.KEYSTORE_PASSWORD,
                PASSWORD), "ui.https.keystore.path: no file " + dir.resolve("missing.p12"),
            Map.of(TlsSettings.KEYSTORE_PATH, keystore.toString(), TlsSettings.KEYSTORE_PASSWORD, "guessed"),
            "ui.https.keystore.password does not open the keystore " + keystore,
            Map.of(TlsSettings.KEYSTORE_PATH, jks.toString(), TlsSettings.KEYSTORE_PASSWORD, PASSWORD,
                TlsSettings.KEYSTORE_TYPE, "JKS", TlsSettings.KEY_PASSWORD, "guessed"),
            "ui.https.key.password does not open the key 'ui' in " + jks,
            Map.of(TlsSettings.KEYSTORE_PASSWORD, PASSWORD), "ui.https.port is 8443 but ui.https.keystore.path is not set",
            Map.of(TlsSettings.KEYSTORE_PATH, keystore.toString(), TlsSettings.KEYSTORE_PASSWORD, PASSWORD,
                TlsSettings.NEED_CLIENT_AUTH, true), "ui.https.need.client.auth is true but ui.https.truststore.path");
        for (Map.Entry<Map<String, Object>, String> c : cases.entrySet()) {
            Map<String, Object> conf = TestTls.conf(dir.resolve("refused"), c.getKey());
            conf.put(TlsSettings.PORT, 8443);

            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> MicroburstServer.start(conf).close(), c.getValue());
            assertTrue(refused.getMessage().startsWith(c.getValue()), refused.getMessage());
            assertEquals(1, refused.getMessage().lines().count(), refused.getMessage());
            assertFalse(refused.getMessage().matches(".*\\b(java|javax|sun)\\.[a-z]+\\..*"), refused.getMessage());
        }
        // the key password given right, the JKS keystore serves (no port is bound by this check)
        Map<String, Object> right = TestTls.conf(dir.resolve("jks"), Map.of(TlsSettings.KEYSTORE_PATH, jks.toString(),
            TlsSettings.KEYSTORE_PASSWORD, PASSWORD, TlsSettings.KEYSTORE_TYPE, "JKS", TlsSettings.KEY_PASSWORD,
            "key-secret"));
        try (MicroburstServer jksServer = TestTls.start(right)) {
            HttpResponse<String> answer = HttpClient.newBuilder().sslContext(TestTls.trusting(jks, "JKS", PASSWORD))
                .build().send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + jksServer.uiHttpsPort()
                    + "/api/v1/cluster/summary")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), answer.body());
        }
    }
}
