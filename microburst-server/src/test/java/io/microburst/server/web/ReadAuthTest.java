package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import io.microburst.server.web.RawHttp.Answer;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;
import org.apache.storm.Config;
import org.apache.storm.security.auth.digest.DigestSaslTransportPlugin;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads need the token when the web port is bound beyond loopback: the server is bound to a non-loopback address of
 * this machine (or, on a machine with none, to every interface and reached through 127.0.0.1, the configured address
 * being what counts), with Storm's digest transport as a non-loopback address requires, HTTPS on and plain HTTP kept
 * ({@code ui.disable.http.binding: false}). Pages, the REST API, {@code /metrics} and the logviewer answer 401 with
 * one line without the token and serve with it (Bearer, the header, or the sign-in cookie); plain HTTP only redirects
 * to HTTPS. On loopback, reads stay open unless {@code microburst.server.http.read.auth} asks otherwise.
 */
@Timeout(120)
class ReadAuthTest {
    private static final String PASSWORD = "store-secret";
    @TempDir
    static Path dir;
    /** The address the server is bound to, and the one the test connects to. */
    private static String bind;
    private static String address;
    private static MicroburstServer server;
    private static String token;
    private static SSLContext trusting;

    @BeforeAll
    static void start() throws Exception {
        bind = nonLoopbackAddress();
        address = bind.equals("0.0.0.0") ? "127.0.0.1" : bind;
        Path keystore = TestTls.keystore(dir, "ui.p12", "PKCS12", PASSWORD, PASSWORD, List.of("127.0.0.1", address));
        trusting = TestTls.trusting(keystore, "PKCS12", PASSWORD);
        Path jaas = Files.writeString(dir.resolve("jaas.conf"), """
            StormServer {
                org.apache.storm.security.auth.digest.UnusedLoginModule required
                user_alice="alice-secret";
            };
            """);
        Map<String, Object> conf = new HashMap<>();
        conf.put(ServerConfig.DIR, dir.resolve("data").toString());
        conf.put(ServerConfig.BIND, bind);
        conf.put(Config.NIMBUS_THRIFT_PORT, 0);
        conf.put(Config.NIMBUS_THRIFT_TRANSPORT_PLUGIN, DigestSaslTransportPlugin.class.getName());
        conf.put("java.security.auth.login.config", jaas.toString());
        conf.put(ServerConfig.UI_PORT, 0);
        conf.put(ServerConfig.LOGVIEWER_PORT, 0);
        conf.put(TlsSettings.KEYSTORE_PATH, keystore.toString());
        conf.put(TlsSettings.KEYSTORE_PASSWORD, PASSWORD);
        conf.put(TlsSettings.DISABLE_HTTP_BINDING, false);
        server = TestTls.start(conf);
        token = WebTestServer.token(server);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** A non-loopback IPv4 address of this machine, or 0.0.0.0 when it has none. */
    private static String nonLoopbackAddress() throws Exception {
        for (NetworkInterface nic : NetworkInterface.networkInterfaces().toList()) {
            if (nic.isUp() && !nic.isLoopback()) {
                for (InetAddress a : nic.inetAddresses().toList()) {
                    if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                        return a.getHostAddress();
                    }
                }
            }
        }
        return "0.0.0.0";
    }

    private static Answer https(String method, String path, Map<String, String> headers, String body) throws Exception {
        return RawHttp.send(trusting.getSocketFactory(), address, server.uiHttpsPort(), method, path,
            address + ":" + server.uiHttpsPort(), headers, body);
    }

    @Test
    void readsWithoutTheTokenAreRefusedInOneLineSayingHowToPassIt() throws Exception {
        for (String path : List.of("/api/v1/cluster/summary", "/api/v1/topology/summary", "/metrics", "/index.html",
            "/")) {
            for (Map<String, String> headers : List.of(Map.<String, String>of(), Map.of("Authorization", "Bearer wrong"),
                Map.of("X-Microburst-Token", "wrong"), Map.of("Cookie", ReadAuth.COOKIE + "=wrong"))) {
                Answer answer = https("GET", path, headers, null);

                assertEquals(401, answer.status(), path + " " + headers + ": " + answer.body());
                assertEquals("Bearer realm=\"microburst\"", answer.header("WWW-Authenticate"));
                assertFalse(answer.body().contains(token), "the token leaked at " + path);
                String message = (String) ((Map<?, ?>) JSONValue.parse(answer.body())).get("errorMessage");
                assertTrue(message.startsWith("GET " + path + " needs the server's token"), message);
                assertTrue(message.contains("Authorization: Bearer") && message.contains(
                    server.dataDir().resolve("ui-token").toString()), message);
                assertEquals(1, message.lines().count(), message);
            }
        }
        Answer logs = RawHttp.send(SocketFactory.getDefault(), address, server.logViewerPort(), "GET",
            "/api/v1/listLogs", address + ":" + server.logViewerPort(), Map.of(), null);
        assertEquals(401, logs.status(), logs.body());
        assertTrue(logs.body().startsWith("GET /api/v1/listLogs needs the server's token"), logs.body());
        assertEquals(1, logs.body().strip().lines().count(), logs.body());
    }

    @Test
    void readsWithTheTokenAreServed() throws Exception {
        for (Map<String, String> headers : List.of(Map.of("Authorization", "Bearer " + token),
            Map.of("authorization", "bearer " + token), Map.of("X-Microburst-Token", token))) {
            Answer summary = https("GET", "/api/v1/cluster/summary", headers, null);
            Answer metrics = https("GET", "/metrics", headers, null);

            assertEquals(200, summary.status(), summary.body());
            assertTrue(summary.body().contains("\"supervisors\":1"), summary.body());
            assertEquals(200, metrics.status(), metrics.body());
            assertTrue(metrics.body().contains("microburst_build_info"), metrics.body());
        }
        Answer logs = RawHttp.send(SocketFactory.getDefault(), address, server.logViewerPort(), "GET",
            "/api/v1/listLogs", address + ":" + server.logViewerPort(), Map.of("Authorization", "Bearer " + token), null);
        assertEquals(200, logs.status(), logs.body());
        assertTrue(logs.body().startsWith("["), logs.body());
    }

    @Test
    void aBrowserSignsInAndItsCookieReadsButNeverActs() throws Exception {
        Answer page = https("GET", "/topology.html?id=x", Map.of("Accept", "text/html"), null);
        assertEquals(401, page.status(), page.body());
        assertTrue(page.body().contains("<form method=\"post\" action=\"/login\">"), page.body());
        assertTrue(page.body().contains("name=\"next\" value=\"/topology.html?id=x\""), page.body());
        assertFalse(page.body().contains(token));

        String origin = "https://" + address + ":" + server.uiHttpsPort();
        Answer wrong = https("POST", "/login", Map.of("Origin", origin, "Content-Type",
            "application/x-www-form-urlencoded"), "token=guessed&next=%2F");
        assertEquals(401, wrong.status(), wrong.body());
        assertEquals(null, wrong.header("Set-Cookie"));
        Answer elsewhere = https("POST", "/login", Map.of("Origin", origin), "token=" + token + "&next="
            + URLEncoder.encode("//evil.example/", StandardCharsets.UTF_8));
        assertEquals("/", elsewhere.header("Location"), "next may only name a path on this port");
        Answer crossSite = https("POST", "/login", Map.of("Origin", "https://evil.example"), "token=" + token);
        assertEquals(403, crossSite.status(), crossSite.body());

        Answer signedIn = https("POST", "/login", Map.of("Origin", origin), "token=" + token + "&next="
            + URLEncoder.encode("/topology.html?id=x", StandardCharsets.UTF_8));
        assertEquals(303, signedIn.status(), signedIn.body());
        assertEquals("/topology.html?id=x", signedIn.header("Location"));
        String cookie = signedIn.header("Set-Cookie");
        assertNotNull(cookie);
        assertTrue(cookie.startsWith(ReadAuth.COOKIE + "=" + token + ";"), cookie);
        for (String attribute : List.of("HttpOnly", "SameSite=Strict", "Secure", "Path=/")) {
            assertTrue(cookie.contains(attribute), cookie);
        }
        String sent = ReadAuth.COOKIE + "=" + token;
        Answer index = https("GET", "/", Map.of("Cookie", sent, "Accept", "text/html"), null);
        assertEquals(200, index.status(), index.body());
        assertTrue(index.body().contains(token), "the signed-in page carries the token for its actions");
        assertEquals(200, https("GET", "/api/v1/topology/summary", Map.of("Cookie", sent), null).status());

        String id = WebTestServer.submit(server, "read-auth");
        Answer cookieOnly = https("POST", "/api/v1/topology/" + id + "/deactivate", Map.of("Cookie", sent,
            "Origin", origin), null);
        assertEquals(403, cookieOnly.status(), cookieOnly.body());
        assertEquals("ACTIVE", WebTestServer.status(server, "read-auth"));
        Answer bearer = https("POST", "/api/v1/topology/" + id + "/deactivate", Map.of("Authorization",
            "Bearer " + token), null);
        assertEquals(200, bearer.status(), bearer.body());
    }

    /** In a real browser (skipped, saying why, without Chromium): the sign-in form, then pages that read with the cookie. */
    @Test
    void aBrowserSignsInOnTheFormAndThePagesRead() throws Exception {
        Browser.requireOrSkip();
        String id = WebTestServer.submit(server, "signed-in");
        try (Browser browser = Browser.start(Files.createDirectories(dir.resolve("chromium")),
            List.of("--ignore-certificate-errors"))) {
            String root = "https://" + address + ":" + server.uiHttpsPort();
            browser.open(root + "/index.html");
            browser.await("the sign-in form", () -> !browser.findAll("input[name=token]").isEmpty());
            browser.screenshot("read-auth-sign-in");
            browser.type("input[name=token]", token);
            browser.click("button[type=submit]");

            browser.await("the topology listed, read with the cookie", () -> !browser.findAll(
                "#topologies a[href='/topology.html?id=" + id + "']").isEmpty());
            assertEquals(root + "/index.html", browser.currentUrl());
            assertEquals("", browser.script("return document.cookie"), "the cookie is HttpOnly");
            browser.screenshot("read-auth-signed-in");
        }
    }

    @Test
    void plainHttpBesideHttpsOnlyRedirects() throws Exception {
        assertTrue(server.uiPort() > 0, "ui.disable.http.binding false keeps plain HTTP");
        String host = address + ":" + server.uiPort();
        for (Map<String, String> headers : List.of(Map.<String, String>of(), Map.of("Authorization", "Bearer " + token))) {
            Answer answer = RawHttp.send(SocketFactory.getDefault(), address, server.uiPort(), "GET",
                "/api/v1/cluster/summary?window=600", host, headers, null);

            assertEquals(308, answer.status(), answer.body());
            String target = "https://" + address + ":" + server.uiHttpsPort() + "/api/v1/cluster/summary?window=600";
            assertEquals(target, answer.header("Location"));
            assertEquals("This port answers over HTTPS only beyond loopback: use " + target, answer.body().strip());
        }
        Answer foreign = RawHttp.send(SocketFactory.getDefault(), address, server.uiPort(), "GET", "/",
            "attacker.example", Map.of(), null);
        assertEquals(403, foreign.status(), foreign.body());
    }

    @Test
    void onLoopbackReadsStayOpenUnlessTheOperatorAsks() throws Exception {
        for (boolean asked : List.of(false, true)) {
            Map<String, Object> conf = new HashMap<>();
            conf.put(ServerConfig.DIR, dir.resolve("loopback-" + asked).toString());
            conf.put(Config.NIMBUS_THRIFT_PORT, 0);
            conf.put(ServerConfig.UI_PORT, 0);
            conf.put(ServerConfig.LOGVIEWER_PORT, 0);
            conf.put(ServerConfig.HTTP_READ_AUTH, asked);
            try (MicroburstServer loopback = MicroburstServer.start(conf)) {
                String own = "127.0.0.1:" + loopback.uiPort();
                Answer summary = RawHttp.send(loopback.uiPort(), "GET", "/api/v1/cluster/summary", own, Map.of(), null);
                Answer logs = RawHttp.send(loopback.logViewerPort(), "GET", "/api/v1/listLogs",
                    "127.0.0.1:" + loopback.logViewerPort(), Map.of(), null);

                assertEquals(asked ? 401 : 200, summary.status(), summary.body());
                assertEquals(asked ? 401 : 200, logs.status(), logs.body());
            }
        }
    }
}
