package io.microburst.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.server.logviewer.LogViewer;
import io.microburst.server.web.ReadAccess;
import io.microburst.server.web.AllowedHosts;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The logviewer's log page, searches and their refusals, over worker logs written by the test: the page's navigation
 * for a start and length, a search finding text across a line break, a read buffer's edge and in a rolled .gz, the
 * deep search's shapes, 400 for bad parameters and 404 for anything outside the logs folder.
 */
class LogViewerPagesTest {
    private static final String TOPOLOGY = "pages-1-1700000000";
    private static final String LOG = TOPOLOGY + "/1024/worker.log";
    private static final String ROLLED = TOPOLOGY + "/1024/worker.log.1.gz";
    private static final Pattern BUTTON = Pattern.compile("<(a|span) class=\"(first|prev|next|last)( disabled)?\"(?: href=\"([^\"]*)\")?>");
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;
    private WorkerLogs logs;
    private LogViewer viewer;
    private String base;
    private String text;

    @BeforeEach
    void start() throws Exception {
        logs = new WorkerLogs(dir.resolve("logs"));
        Path port = Files.createDirectories(logs.root().resolve(TOPOLOGY).resolve("1024"));
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            lines.append(String.format("line %03d <b>&\n", i)); // 14 bytes a line, markup to be escaped
        }
        lines.append("the end of alpha\nbeta begins\n");
        while (lines.length() < (1 << 16) - 60) {
            lines.append('.');
        }
        lines.append("ENDS-NEAR-EDGE"); // its context after runs on past the first 64 KiB read
        while (lines.length() < (1 << 16) - 3) {
            lines.append('.');
        }
        lines.append("EDGE-OF-BUFFER\n"); // starts 3 bytes before the first 64 KiB read ends
        lines.append("JUST-AFTER\n"); // its context before starts in the first read
        text = lines.toString();
        Files.writeString(port.resolve("worker.log"), text);
        Files.writeString(port.resolve("events.log"), "an event naming needle-in-gz\n");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(port.resolve("worker.log.1.gz")))) {
            out.write("older lines\nthe needle-in-gz is here\nand again needle-in-gz\n".getBytes(StandardCharsets.UTF_8));
        }
        Files.writeString(dir.resolve("secret.txt"), "outside the logs folder, needle-in-gz\n");
        viewer = new LogViewer(logs, "127.0.0.1", 0, new AllowedHosts("hosts", List.of()),
            new ReadAccess("token", "token-file", false));
        base = "http://127.0.0.1:" + viewer.port();
    }

    @AfterEach
    void stop() {
        viewer.close();
        logs.close();
    }

    @Test
    void thePageShowsTheBytesAskedForWithNavigationByLength() throws Exception {
        HttpResponse<String> page = get("/api/v1/log?file=" + enc(LOG) + "&start=300&length=150");
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"), page.headers().toString());
        assertTrue(page.body().contains(escape(text.substring(300, 450))), page.body());
        assertFalse(page.body().contains("<b>&"), "the log's markup is escaped");
        Map<String, String> nav = buttons(page.body());
        String link = "/api/v1/log?file=" + enc(LOG);
        assertEquals(link + "&start=0&length=150", nav.get("first"));
        assertEquals(link + "&start=150&length=150", nav.get("prev"));
        assertEquals(link + "&start=450&length=150", nav.get("next"));
        assertEquals(link + "&length=150", nav.get("last"));
        assertTrue(page.body().contains("href=\"/api/v1/download?file=" + enc(LOG) + "\""), "download link");
        assertTrue(page.body().contains("<option value=\"" + ROLLED + "\">"), "the topology's other files");
        assertTrue(page.body().contains("<option value=\"150\" selected>"), "the length in the selector");

        HttpResponse<String> last = get("/api/v1/log?file=" + enc(LOG) + "&length=100");
        Map<String, String> lastNav = buttons(last.body());
        int size = text.length();
        assertTrue(last.body().contains(escape(text.substring(size - 100))), "without start, the last bytes");
        assertNull(lastNav.get("next"), "no next on the last page");
        assertNull(lastNav.get("last"));
        assertEquals(link + "&start=" + (size - 200) + "&length=100", lastNav.get("prev"));

        Map<String, String> firstNav = buttons(get("/api/v1/log?file=" + enc(LOG) + "&start=0&length=100").body());
        assertNull(firstNav.get("first"));
        assertNull(firstNav.get("prev"));
        assertEquals(link + "&start=100&length=100", firstNav.get("next"));

        String grep = get("/api/v1/log?file=" + enc(LOG) + "&start=0&length=150&grep=" + enc("line 004")).body();
        assertTrue(grep.contains("line 004 &lt;b&gt;&amp;") && !grep.contains("line 005"), grep);

        HttpResponse<String> plain = get("/api/v1/log?file=" + enc(LOG) + "&start=300&length=150&format=text");
        assertEquals(text.substring(300, 450), plain.body());
        assertTrue(get("/api/v1/log?file=" + enc(ROLLED) + "&start=0&format=text").body().startsWith("older lines"));
        assertEquals(200, get("/logviewer_search.html").statusCode());
        assertEquals(200, get("/deep_search_result.html").statusCode());
    }

    @Test
    void aSearchFindsTextAcrossALineBreakAndABuffersEdgeWithStormsShape() throws Exception {
        Map<?, ?> found = json(get("/api/v1/search?file=" + enc(LOG) + "&search-string=" + enc("alpha\nbeta")));
        assertEquals("no", found.get("isDaemon"));
        assertEquals("alpha\nbeta", found.get("searchString"));
        assertEquals(0, ((Number) found.get("startByteOffset")).intValue());
        List<?> matches = (List<?>) found.get("matches");
        assertEquals(1, matches.size());
        Map<?, ?> match = (Map<?, ?>) matches.get(0);
        int at = text.indexOf("alpha\nbeta");
        assertEquals(at, ((Number) match.get("byteOffset")).intValue());
        assertEquals(text.substring(at - 128, at), match.get("beforeString"));
        assertEquals(text.substring(at + 10, at + 10 + 128), match.get("afterString"));
        assertEquals("alpha\nbeta", match.get("matchString"));
        assertEquals(base + "/api/v1/log?file=" + enc(LOG) + "&start=0&length=51200", match.get("logviewerURL"));
        assertNull(found.get("nextByteOffset"), "the whole file was searched");

        Map<?, ?> edge = json(get("/api/v1/search?file=" + enc(LOG) + "&search-string=EDGE-OF-BUFFER"));
        Map<?, ?> edgeMatch = (Map<?, ?>) ((List<?>) edge.get("matches")).get(0);
        int edgeAt = text.indexOf("EDGE-OF-BUFFER");
        assertEquals(edgeAt, ((Number) edgeMatch.get("byteOffset")).intValue());
        assertEquals("\nJUST-AFTER\n", edgeMatch.get("afterString"), "the context after ends with the file");
        for (String marker : List.of("ENDS-NEAR-EDGE", "EDGE-OF-BUFFER", "JUST-AFTER")) {
            Map<?, ?> m = (Map<?, ?>) ((List<?>) json(get("/api/v1/search?file=" + enc(LOG) + "&search-string=" + marker))
                .get("matches")).get(0);
            int markerAt = text.indexOf(marker);
            assertEquals(markerAt, ((Number) m.get("byteOffset")).intValue(), marker);
            assertEquals(text.substring(markerAt - 128, markerAt), m.get("beforeString"), marker);
            int afterAt = markerAt + marker.length();
            assertEquals(text.substring(afterAt, Math.min(text.length(), afterAt + 128)), m.get("afterString"), marker);
        }
        assertEquals(base + "/api/v1/log?file=" + enc(LOG) + "&start=" + (edgeAt - 25600 + 7) + "&length=51200",
            edgeMatch.get("logviewerURL"), "the page centred on the match");

        Map<?, ?> first = json(get("/api/v1/search?file=" + enc(LOG) + "&search-string=" + enc("<b>") + "&num-matches=2"));
        assertEquals(2, ((List<?>) first.get("matches")).size());
        assertEquals(text.indexOf("<b>", 20) + 3, ((Number) first.get("nextByteOffset")).intValue());
        Map<?, ?> next = json(get("/api/v1/search?file=" + enc(LOG) + "&search-string=" + enc("<b>")
            + "&num-matches=1&start-byte-offset=" + first.get("nextByteOffset")));
        Map<?, ?> third = (Map<?, ?>) ((List<?>) next.get("matches")).get(0);
        assertEquals(text.indexOf("<b>", text.indexOf("<b>", 20) + 1), ((Number) third.get("byteOffset")).intValue());
        assertEquals(text.substring(((Number) first.get("nextByteOffset")).intValue(),
            ((Number) third.get("byteOffset")).intValue()), third.get("beforeString"), "no context before the start");
    }

    @Test
    void rolledGzFilesAreSearchedAsTextAndByTheDeepSearchWhenAsked() throws Exception {
        Map<?, ?> inGz = json(get("/api/v1/search?file=" + enc(ROLLED) + "&search-string=needle-in-gz"));
        List<?> gzMatches = (List<?>) inGz.get("matches");
        assertEquals(2, gzMatches.size());
        String rolledText = "older lines\nthe needle-in-gz is here\nand again needle-in-gz\n";
        assertEquals(rolledText.indexOf("needle-in-gz"), ((Number) ((Map<?, ?>) gzMatches.get(0)).get("byteOffset")).intValue());

        List<?> live = (List<?>) JSONValue.parse(get("/api/v1/deepSearch/" + TOPOLOGY + "?search-string=needle-in-gz")
            .body());
        assertEquals(1, live.size(), "one port");
        assertEquals(List.of(), ((Map<?, ?>) live.get(0)).get("matches"), "worker.log only: the event log is no worker log");

        List<?> archived = (List<?>) JSONValue.parse(get("/api/v1/deepSearch/" + TOPOLOGY
            + "?search-string=needle-in-gz&num-matches=5&search-archived=on").body());
        Map<?, ?> port = (Map<?, ?>) archived.get(0);
        assertEquals("needle-in-gz", port.get("searchString"));
        Map<?, ?> file = (Map<?, ?>) ((List<?>) port.get("matches")).get(0);
        assertEquals(ROLLED, file.get("fileName"));
        assertEquals("1024", file.get("port"));
        assertEquals(2, ((List<?>) file.get("matches")).size());
        assertEquals(2, ((Number) port.get("fileOffset")).intValue(), "both files read");

        Map<?, ?> onePort = json(get("/api/v1/deepSearch/" + TOPOLOGY + "?search-string=needle-in-gz&port=1024"
            + "&search-archived=true&num-matches=1"));
        assertEquals(1, ((Number) onePort.get("fileOffset")).intValue(), "stopped in the rolled file, the second");
        assertEquals(List.of(), JSONValue.parse(get("/api/v1/deepSearch/no-such-topology?search-string=x").body()));
    }

    @Test
    void badParametersAreRefusedWith400InOneLine() throws Exception {
        String search = "/api/v1/search?file=" + enc(LOG) + "&search-string=";
        String deep = "/api/v1/deepSearch/" + TOPOLOGY + "?search-string=";
        Map<String, String> cases = new HashMap<>();
        cases.put(search.replace("&search-string=", ""), "search-string");
        cases.put(search + "x".repeat(1025), "search-string");
        cases.put(search + "x&num-matches=0", "num-matches");
        cases.put(search + "x&num-matches=1001", "num-matches");
        cases.put(search + "x&num-matches=ten", "num-matches");
        cases.put(search + "x&start-byte-offset=-1", "start-byte-offset");
        cases.put(search + "x&start-byte-offset=99999999", "start-byte-offset");
        cases.put(deep + "x&search-archived=maybe", "search-archived");
        cases.put(deep + "x&port=abc", "port");
        cases.put(deep + "x&start-file-offset=-2", "start-file-offset");
        cases.put(deep, "search-string");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            HttpResponse<String> answer = get(c.getKey());
            assertEquals(400, answer.statusCode(), c.getKey() + " " + answer.body());
            Map<?, ?> error = json(answer);
            assertEquals("400 Bad Request", error.get("error"));
            String message = (String) error.get("errorMessage");
            assertTrue(message.contains(c.getValue()) && !message.contains("\n"), c.getKey() + ": " + message);
        }
        for (String page : List.of("&start=-1", "&length=abc", "&format=xml")) {
            HttpResponse<String> answer = get("/api/v1/log?file=" + enc(LOG) + page);
            assertEquals(400, answer.statusCode(), page);
            assertFalse(answer.body().contains("\n"), answer.body());
        }
    }

    @Test
    void nothingOutsideTheLogsFolderIsServedBySearchesOrThePage() throws Exception {
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere").resolve("1024"));
        Files.writeString(elsewhere.resolve("worker.log"), "needle-in-gz outside\n");
        Files.createSymbolicLink(logs.root().resolve("linked-topology"), elsewhere.getParent());
        Files.createSymbolicLink(logs.root().resolve(TOPOLOGY).resolve("1024").resolve("worker.log.2.gz"),
            dir.resolve("secret.txt"));
        for (String trick : List.of("../../secret.txt", dir.resolve("secret.txt").toString(), TOPOLOGY + "/../../../secret.txt",
            TOPOLOGY + "/1024/worker.log.2.gz", "linked-topology/1024/worker.log")) {
            HttpResponse<String> search = get("/api/v1/search?file=" + enc(trick) + "&search-string=needle");
            assertEquals(404, search.statusCode(), trick + ": " + search.body());
            assertEquals("404 Not Found", json(search).get("error"));
            HttpResponse<String> page = get("/api/v1/log?file=" + enc(trick));
            assertEquals(404, page.statusCode(), trick);
            assertFalse(page.body().contains("outside"), page.body());
        }
        String archived = get("/api/v1/deepSearch/" + TOPOLOGY + "?search-string=needle-in-gz&num-matches=50"
            + "&search-archived=true").body();
        assertFalse(archived.contains("worker.log.2.gz") || archived.contains("outside"), archived);
        assertEquals(List.of(), JSONValue.parse(get("/api/v1/deepSearch/linked-topology?search-string=needle-in-gz")
            .body()), "a linked topology folder is not followed");
        for (String topology : List.of("..", "%2E%2E", "..%5C..")) {
            HttpResponse<String> answer = get("/api/v1/deepSearch/" + topology + "?search-string=needle");
            assertTrue(answer.statusCode() == 404 || answer.statusCode() == 400, topology + ": " + answer.statusCode());
            assertFalse(answer.body().contains("outside"), answer.body());
        }
    }

    private static Map<String, String> buttons(String page) {
        Map<String, String> links = new HashMap<>();
        Matcher m = BUTTON.matcher(page);
        while (m.find()) {
            if (m.group(3) == null) {
                links.put(m.group(2), m.group(4).replace("&amp;", "&"));
            }
        }
        return links;
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static Map<?, ?> json(HttpResponse<String> response) {
        return (Map<?, ?>) JSONValue.parse(response.body());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
