package io.microburst.server.hostile;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input on the server's HTTP ports (UI and REST API, logviewer, DRPC over HTTP): malformed and huge bodies, odd
 * methods, path tricks, broken and huge headers, bad query values, unknown ids, log file names that climb out of the
 * logs folder. Every case gets a clear 4xx naming what was wrong; the server keeps serving; nothing is written outside
 * its folder. The answers are printed as a table.
 */
@Timeout(300)
class HttpCampaignTest {
    private static final List<String> ODD_METHODS = List.of("PUT", "DELETE", "TRACE", "OPTIONS", "PATCH");

    @TempDir
    Path parent;
    @TempDir
    Path elsewhere;

    @Test
    void everyHttpPortRefusesHostileInputClearlyAndKeepsServing() throws Exception {
        try (Campaign c = new Campaign(parent)) {
            String id = c.targetId();
            ui(c, id);
            logViewer(c, id);
            drpc(c);
            System.out.println(c.table());
            assertTrue(c.failures().isEmpty(), String.join("\n", c.failures()) + "\n" + c.table());
        }
    }

    private static void ui(Campaign c, String id) {
        int port = c.server.uiPort();
        String tokenHeader = "X-Microburst-Token: " + c.token + "\r\n";
        String rebalance = "/api/v1/topology/" + id + "/rebalance/0";
        c.refused("ui", "rebalance, malformed JSON", "not JSON",
            () -> Wire.request(port, "POST", rebalance, tokenHeader, "{\"rebalanceOptions\": {\"executors\""));
        c.refused("ui", "rebalance, body 'garbage'", "not JSON",
            () -> Wire.request(port, "POST", rebalance, tokenHeader, "garbage"));
        c.refused("ui", "rebalance, 50 MB body", "larger than", () -> Wire.raw(port, head("POST", rebalance, port,
            tokenHeader + "Content-Length: " + (50L << 20) + "\r\n"), new byte[0], 50L << 20));
        c.refused("ui", "rebalance, 50 MB chunked body", "larger than", () -> Wire.raw(port, head("POST", rebalance, port,
            tokenHeader + "Transfer-Encoding: chunked\r\n"), chunked(50 << 20), 0));
        c.refused("ui", "rebalance, unknown component", "nosuch", () -> Wire.request(port, "POST", rebalance, tokenHeader,
            "{\"rebalanceOptions\": {\"executors\": {\"nosuch\": 2}}}"));
        c.refused("ui", "kill, wait -1", "wait", () -> Wire.request(port, "POST", "/api/v1/topology/" + id + "/kill/-1",
            tokenHeader, null));
        c.refused("ui", "kill, wait 99999999999", "wait", () -> Wire.request(port, "POST",
            "/api/v1/topology/" + id + "/kill/99999999999", tokenHeader, null));
        c.refused("ui", "kill without the token", "token",
            () -> Wire.request(port, "POST", "/api/v1/topology/" + id + "/kill/0", "", null));
        c.refused("ui", "kill with a wrong token", "token", () -> Wire.request(port, "POST",
            "/api/v1/topology/" + id + "/kill/0", "X-Microburst-Token: 0000\r\n", null));
        c.refused("ui", "kill, foreign Host", "host", () -> Wire.raw(port, ("POST /api/v1/topology/" + id
            + "/kill/0 HTTP/1.1\r\nHost: attacker.example\r\n" + tokenHeader + "Content-Length: 0\r\nConnection: close"
            + "\r\n\r\n").getBytes(StandardCharsets.UTF_8), new byte[0], 0));
        c.refused("ui", "kill, cross-origin", "cross-origin", () -> Wire.request(port, "POST",
            "/api/v1/topology/" + id + "/kill/0", tokenHeader + "Origin: http://attacker.example\r\n", null));
        for (String method : ODD_METHODS) {
            c.refused("ui", method + " /api/v1/cluster/summary", method,
                () -> Wire.request(port, method, "/api/v1/cluster/summary", "", null));
        }
        c.refused("ui", "OPTIONS *", "OPTIONS", () -> Wire.request(port, "OPTIONS", "*", "", null));
        c.refused("ui", "GET /../../etc/passwd", "path", () -> Wire.request(port, "GET", "/../../etc/passwd", "", null));
        c.refused("ui", "GET /api/v1/%2e%2e/%2e%2e/etc/passwd", "path",
            () -> Wire.request(port, "GET", "/api/v1/%2e%2e/%2e%2e/etc/passwd", "", null));
        c.refused("ui", "GET //api//v1/cluster/summary", "path",
            () -> Wire.request(port, "GET", "//api//v1/cluster/summary", "", null));
        c.refused("ui", "GET /api/v1/topology/a%00b (encoded NUL)", "path",
            () -> Wire.request(port, "GET", "/api/v1/topology/a%00b", "", null));
        c.refused("ui", "GET /api/v1/topology/a%2fb (encoded slash)", "path",
            () -> Wire.request(port, "GET", "/api/v1/topology/a%2fb", "", null));
        c.refused("ui", "GET /index.html%5c..%5cui-token (encoded backslash)", "path",
            () -> Wire.request(port, "GET", "/index.html%5c..%5cui-token", "", null));
        c.refused("ui", "GET a 100 KB path", "URI", () -> Wire.request(port, "GET", "/" + "a".repeat(100_000), "", null));
        c.refused("ui", "GET unicode topology id", "ト", () -> Wire.request(port, "GET", "/api/v1/topology/"
            + URLEncoder.encode("トポロジー", StandardCharsets.UTF_8), "", null));
        c.refused("ui", "GET invalid UTF-8 in the path", "path",
            () -> Wire.request(port, "GET", "/api/v1/topology/%C3%28", "", null));
        c.refused("ui", "GET unknown topology", "nosuch-1-1", () -> Wire.request(port, "GET", "/api/v1/topology/nosuch-1-1",
            "", null));
        c.refused("ui", "GET unknown component", "nosuch", () -> Wire.request(port, "GET", "/api/v1/topology/" + id
            + "/component/nosuch", "", null));
        c.refused("ui", "GET ?window=bogus", "window",
            () -> Wire.request(port, "GET", "/api/v1/topology/" + id + "?window=bogus", "", null));
        c.refused("ui", "GET ?window=%zz (bad encoding)", "query",
            () -> Wire.request(port, "GET", "/api/v1/topology/" + id + "?window=%zz", "", null));
        c.refused("ui", "GET ?sys=maybe", "sys", () -> Wire.request(port, "GET", "/api/v1/topology/" + id + "?sys=maybe",
            "", null));
        c.refused("ui", "a 64 KB header", "header", () -> Wire.request(port, "GET", "/api/v1/cluster/summary",
            "X-Big: " + "b".repeat(64 << 10) + "\r\n", null));
        c.refused("ui", "10,000 headers", "header", () -> Wire.request(port, "GET", "/api/v1/cluster/summary",
            "X-Many: m\r\n".repeat(10_000), null));
        c.refused("ui", "a header without a colon", "header", () -> Wire.request(port, "GET", "/api/v1/cluster/summary",
            "NoColonHere\r\n", null));
        c.refused("ui", "no Host header", "host", () -> Wire.raw(port, ("GET /api/v1/cluster/summary HTTP/1.1\r\n"
            + "Connection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8), new byte[0], 0));
        c.refused("ui", "a garbage request line", "request", () -> Wire.raw(port,
            "\u0001\u0002GARBAGE \u00ff\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), new byte[0], 0));
        c.refused("ui", "a negative Content-Length", "content", () -> Wire.raw(port, head("POST", rebalance, port,
            tokenHeader + "Content-Length: -5\r\n"), new byte[0], 0));
        c.refused("ui", "a bad chunk size", "chunk", () -> Wire.raw(port, head("POST", rebalance, port,
            tokenHeader + "Transfer-Encoding: chunked\r\n"), "zz\r\nabc\r\n0\r\n\r\n".getBytes(StandardCharsets.UTF_8), 0));
        c.answered("ui", "HTTP/9.9", 505, "version", () -> Wire.raw(port, ("GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8), new byte[0], 0));
    }

    private void logViewer(Campaign c, String id) throws Exception {
        int port = c.server.logViewerPort();
        String log = id + "/1024/worker.log";
        String base = "/api/v1/log?file=";
        c.refused("logviewer", "file=../../topologies/target/conf.json", "conf.json",
            () -> Wire.request(port, "GET", base + enc("../../topologies/target/conf.json"), "", null));
        c.refused("logviewer", "file=" + id + "/../../../ui-token", "ui-token",
            () -> Wire.request(port, "GET", "/api/v1/download?file=" + enc(id + "/../../../ui-token"), "", null));
        c.refused("logviewer", "file=/etc/passwd (absolute)", "/etc/passwd",
            () -> Wire.request(port, "GET", base + enc("/etc/passwd"), "", null));
        c.refused("logviewer", "file=%252e%252e (encoded twice)", "%2e%2e",
            () -> Wire.request(port, "GET", base + "%252e%252e%252f%252e%252e%252fui-token", "", null));
        c.refused("logviewer", "file with an encoded NUL", "file",
            () -> Wire.request(port, "GET", base + enc(log) + "%00.txt", "", null));
        c.refused("logviewer", "file= empty", "file", () -> Wire.request(port, "GET", base, "", null));
        Files.writeString(elsewhere.resolve("secret.txt"), "outside the logs folder\n");
        Path root = c.server.workerLogsDir();
        Path linkedDir = Files.createSymbolicLink(root.resolve(id).resolve("linked"), elsewhere);
        Path linkedFile = Files.createSymbolicLink(root.resolve(id).resolve("1024").resolve("worker.log.7.gz"),
            elsewhere.resolve("secret.txt"));
        try {
            c.refused("logviewer", "file through a symlinked folder", "secret.txt",
                () -> Wire.request(port, "GET", "/api/v1/download?file=" + enc(id + "/linked/secret.txt"), "", null));
            c.refused("logviewer", "file that is a symlink out", "worker.log.7.gz",
                () -> Wire.request(port, "GET", "/api/v1/download?file=" + enc(id + "/1024/worker.log.7.gz"), "", null));
        } finally {
            Files.delete(linkedDir);
            Files.delete(linkedFile);
        }
        c.servedOrRefused("logviewer", "start past the end", "start",
            () -> Wire.request(port, "GET", base + enc(log) + "&start=9223372036854775807", "", null));
        c.refused("logviewer", "start beyond a long", "start",
            () -> Wire.request(port, "GET", base + enc(log) + "&start=99999999999999999999", "", null));
        c.refused("logviewer", "length=10^12", "length",
            () -> Wire.request(port, "GET", base + enc(log) + "&length=1000000000000", "", null));
        c.refused("logviewer", "start=-5", "start", () -> Wire.request(port, "GET", base + enc(log) + "&start=-5", "", null));
        c.refused("logviewer", "length=-1", "length",
            () -> Wire.request(port, "GET", base + enc(log) + "&length=-1", "", null));
        c.refused("logviewer", "start=abc", "start", () -> Wire.request(port, "GET", base + enc(log) + "&start=abc", "", null));
        c.refused("logviewer", "length=1e3", "length",
            () -> Wire.request(port, "GET", base + enc(log) + "&length=1e3", "", null));
        c.refused("logviewer", "search file=" + id + "/../../../ui-token", "ui-token", () -> Wire.request(port, "GET",
            "/api/v1/search?search-string=a&file=" + enc(id + "/../../../ui-token"), "", null));
        c.refused("logviewer", "search a 2 KB string", "search-string", () -> Wire.request(port, "GET",
            "/api/v1/search?file=" + enc(log) + "&search-string=" + "s".repeat(2048), "", null));
        c.refused("logviewer", "deepSearch num-matches=10^9", "num-matches", () -> Wire.request(port, "GET",
            "/api/v1/deepSearch/" + enc(id) + "?search-string=a&num-matches=1000000000", "", null));
        c.refused("logviewer", "deepSearch of an encoded ..", "..", () -> Wire.request(port, "GET",
            "/api/v1/deepSearch/%2e%2e?search-string=a", "", null));
        c.refused("logviewer", "listLogs?port=abc", "port",
            () -> Wire.request(port, "GET", "/api/v1/listLogs?port=abc", "", null));
        for (String method : ODD_METHODS) {
            c.refused("logviewer", method + " /api/v1/log", method,
                () -> Wire.request(port, method, base + enc(log), "", null));
        }
        c.refused("logviewer", "POST a 50 MB body", "POST", () -> Wire.raw(port, head("POST", base + enc(log), port,
            "Content-Length: " + (50L << 20) + "\r\n"), new byte[0], 50L << 20));
        c.refused("logviewer", "GET /../../etc/passwd", "path",
            () -> Wire.request(port, "GET", "/../../etc/passwd", "", null));
        c.refused("logviewer", "GET a 100 KB query", "URI",
            () -> Wire.request(port, "GET", base + "a".repeat(100_000), "", null));
    }

    private static void drpc(Campaign c) {
        int port = c.server.drpcHttpPort();
        c.answered("drpc", "GET an unknown function (Storm: answered at drpc.request.timeout.secs)", 504, "nosuchfunction",
            () -> Wire.request(port, "GET", "/drpc/nosuchfunction/x", "", null));
        c.refused("drpc", "POST 50 MB of arguments", "larger than", () -> Wire.raw(port, head("POST",
            "/drpc/nosuchfunction", port, "Content-Length: " + (50L << 20) + "\r\n"), new byte[0], 50L << 20));
        c.refused("drpc", "POST 50 MB of chunked arguments", "larger than", () -> Wire.raw(port, head("POST",
            "/drpc/nosuchfunction", port, "Transfer-Encoding: chunked\r\n"), chunked(50 << 20), 0));
        c.refused("drpc", "GET 100 KB of arguments", "URI",
            () -> Wire.request(port, "GET", "/drpc/f/" + "a".repeat(100_000), "", null));
        for (String method : ODD_METHODS) {
            c.refused("drpc", method + " /drpc/f", method, () -> Wire.request(port, method, "/drpc/f", "", null));
        }
        c.refused("drpc", "GET /drpc/", "/drpc/", () -> Wire.request(port, "GET", "/drpc/", "", null));
        c.refused("drpc", "GET /drpc/f/a/b", "/drpc/f/a/b", () -> Wire.request(port, "GET", "/drpc/f/a/b", "", null));
        c.refused("drpc", "GET /drpc/%2e%2e/x", "path", () -> Wire.request(port, "GET", "/drpc/%2e%2e/x", "", null));
    }

    private static byte[] head(String method, String target, int port, String headers) {
        return (method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + headers
            + "Connection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8);
    }

    /** A chunked body of {@code bytes} 'x's in 64 KiB chunks, with its last chunk. */
    private static byte[] chunked(int bytes) {
        int size = 64 << 10;
        String sizeLine = Integer.toHexString(size) + "\r\n";
        byte[] chunk = new byte[sizeLine.length() + size + 2];
        System.arraycopy(sizeLine.getBytes(StandardCharsets.US_ASCII), 0, chunk, 0, sizeLine.length());
        java.util.Arrays.fill(chunk, sizeLine.length(), sizeLine.length() + size, (byte) 'x');
        chunk[chunk.length - 2] = '\r';
        chunk[chunk.length - 1] = '\n';
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(bytes + bytes / 1000 + 16);
        for (int n = 0; n < bytes / size; n++) {
            out.write(chunk, 0, chunk.length);
        }
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    private static String enc(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
