package io.microburst.server.logviewer;

import io.microburst.server.web.AllowedHosts;
import io.microburst.server.web.JettyServer;
import io.microburst.server.web.QueryParameters;
import io.microburst.server.web.ReadAccess;
import io.microburst.server.web.TlsSettings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Storm's logviewer (a supervisor's {@code logviewer.port}, 8000) over the worker logs ({@link LogFolder}), at
 * Storm's paths with Storm's parameters: {@code GET /api/v1/log?file=ID/PORT/worker.log&start=&length=&grep=} the log
 * page ({@link LogPage}; with {@code &format=text} the same bytes as plain text), {@code /api/v1/download?file=} the
 * file, {@code /api/v1/listLogs?topoId=&port=} (and Storm's alias {@code searchLogs}) the JSON list of files,
 * {@code /api/v1/search} and {@code /api/v1/deepSearch/ID} ({@link LogSearch}), and the search pages {@code
 * /logviewer_search.html}, {@code /deep_search_result.html}. A request for anything outside the logs folder, or for a
 * file that does not exist, gets 404 naming it; a bad parameter 400 naming it; one line either way (Storm's error
 * JSON on the JSON endpoints). Listens on the server's bind address only, over HTTP and/or HTTPS. Jetty's request
 * threads; stateless apart from Jetty.
 */
public final class LogViewer implements AutoCloseable {
    /** Without {@code format=text}, a raw slice is at most this long. */
    private static final long MAX_LENGTH = 64L << 20;
    private static final Map<String, String> STATIC = Map.of("/logviewer_search.html", Answers.HTML,
        "/deep_search_result.html", Answers.HTML, "/logviewer.css", "text/css; charset=utf-8", "/logviewer-search.js",
        "text/javascript; charset=utf-8");
    private static final Logger LOG = LoggerFactory.getLogger(LogViewer.class);

    private final LogFolder logs;
    private final LogPage page = new LogPage();
    private final LogSearch search;
    private final JettyServer http;

    /** Beyond loopback every request needs the server's token, as the web port's ({@link ReadAccess}). */
    public LogViewer(LogFolder logs, String host, int port, AllowedHosts allowedHosts, ReadAccess access)
        throws Exception {
        this(logs, host, port, null, allowedHosts, access);
    }

    /**
     * As above, over HTTPS too (Storm's {@code logviewer.https.*} keys), with the same TLS as the web port's.
     *
     * @param port the plain HTTP port, 0 for any free one, -1 for none (HTTPS only)
     * @param tls HTTPS on the same address, or null
     */
    public LogViewer(LogFolder logs, String host, int port, TlsSettings tls, AllowedHosts allowedHosts,
                     ReadAccess access) throws Exception {
        this.logs = logs;
        this.search = new LogSearch(logs);
        this.http = new JettyServer("logviewer", "microburst-logviewer", 8, 1, host, port, tls, allowedHosts,
            access.guard(new Routes(), false), false);
    }

    /** The plain HTTP port, or -1 when it serves HTTPS only. */
    public int port() {
        return http.port();
    }

    /** The HTTPS port ({@code logviewer.https.port}), or -1 without HTTPS. */
    public int httpsPort() {
        return http.httpsPort();
    }

    @Override
    public void close() {
        http.close();
    }

    private final class Routes extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            String path = Request.getPathInContext(request);
            boolean json = path.equals("/api/v1/search") || path.startsWith("/api/v1/deepSearch/");
            try {
                Fields query = QueryParameters.of(request);
                if (!"GET".equals(request.getMethod())) {
                    Answers.text(response, callback, 405, "method " + request.getMethod() + " is not allowed; the "
                        + "logviewer answers GET");
                } else if (path.equals("/api/v1/download") || path.equals("/api/v1/log")) {
                    String name = query.getValue("file");
                    Path file = logs.file(name);
                    if (name == null) {
                        Answers.text(response, callback, 400, path + " needs the parameter file=TOPOLOGY_ID/PORT/worker.log");
                    } else if (file == null) {
                        Answers.text(response, callback, 404, noSuchFile(name));
                    } else if (path.endsWith("download")) {
                        Answers.download(response, callback, file);
                    } else {
                        log(response, callback, query, name, file);
                    }
                } else if (path.equals("/api/v1/listLogs") || path.equals("/api/v1/searchLogs")) {
                    String port = query.getValue("port");
                    Params.number(query, "port", 0, Integer.MAX_VALUE);
                    Answers.json(response, callback, 200, LogListing.files(logs.root(), query.getValue("topoId"), port));
                } else if (path.equals("/api/v1/search")) {
                    searchFile(request, response, callback, query);
                } else if (path.startsWith("/api/v1/deepSearch/")) {
                    searchTopology(request, response, callback, query, path.substring("/api/v1/deepSearch/".length()));
                } else if (path.equals("/api/v1/daemonlog") || path.equals("/api/v1/daemondownload")) {
                    Answers.text(response, callback, 404, "this server keeps no daemon logs: its own log goes to its "
                        + "standard output; worker logs are at /api/v1/log?file=ID/PORT/worker.log (see /api/v1/listLogs)");
                } else if (STATIC.containsKey(path)) {
                    Answers.send(response, callback, 200, STATIC.get(path), resource(path.substring(1)));
                } else {
                    Answers.text(response, callback, 404, "no such page: " + QueryParameters.shown(path));
                }
            } catch (IllegalArgumentException e) {
                answerError(response, callback, json, 400, e.getMessage());
            } catch (NoSuchFileException e) {
                answerError(response, callback, json, 404, "no worker logs named '" + QueryParameters.shown(e.getFile())
                    + "' here; /api/v1/listLogs lists the files");
            } catch (IOException | RuntimeException e) {
                LOG.warn("GET {} failed", path, e);
                answerError(response, callback, json, 500, "GET " + QueryParameters.shown(path)
                    + " failed; the server's log says why");
            }
            return true;
        }
    }

    private static void answerError(Response response, Callback callback, boolean json, int status, String message) {
        if (json) {
            Answers.jsonError(response, callback, status, message);
        } else {
            Answers.text(response, callback, status, message);
        }
    }

    private static String noSuchFile(String name) {
        return "no such log file: " + QueryParameters.shown(name) + " (name one that /api/v1/listLogs lists)";
    }

    /** The log page, or with {@code format=text} the same bytes as text. */
    private void log(Response response, Callback callback, Fields query, String name, Path file) throws IOException {
        Long start = Params.number(query, "start", 0, Long.MAX_VALUE);
        Long length = Params.number(query, "length", 0, MAX_LENGTH);
        String format = query.getValue("format");
        if ("text".equals(format)) {
            long size = LogText.size(file);
            long len = length == null ? LogPage.DEFAULT_LENGTH : length;
            long from = start == null ? Math.max(0, size - len) : Math.min(start, size);
            Answers.send(response, callback, 200, Answers.TEXT, LogText.read(file, from, (int) Math.min(len, size - from)));
        } else if (format == null || format.equals("html")) {
            Path topology = logs.root().relativize(file).getName(0);
            LogPage.Window window = LogPage.Window.of(start, length, LogText.size(file));
            String html = page.render(name, file, window, query.getValue("grep"),
                LogListing.files(logs.root(), topology.toString(), null));
            Answers.send(response, callback, 200, Answers.HTML, html.getBytes(StandardCharsets.UTF_8));
        } else {
            throw new IllegalArgumentException("parameter format must be html (the page) or text: "
                + QueryParameters.shown(format));
        }
    }

    private void searchFile(Request request, Response response, Callback callback, Fields query) throws IOException {
        String name = Params.required(query, "file", "TOPOLOGY_ID/PORT/worker.log");
        byte[] needle = LogSearch.needle(Params.required(query, "search-string", "TEXT"));
        int limit = (int) Params.number(query, "num-matches", 1, LogSearch.MAX_MATCHES, LogSearch.FILE_MATCHES);
        long start = Params.number(query, "start-byte-offset", 0, Long.MAX_VALUE, 0);
        if (Params.flag(query, "is-daemon")) {
            Answers.jsonError(response, callback, 404, "this server keeps no daemon logs; search a worker log "
                + "(is-daemon=no)");
            return;
        }
        Path file = logs.file(name);
        if (file == null) {
            Answers.jsonError(response, callback, 404, noSuchFile(name));
            return;
        }
        Answers.json(response, callback, 200, search.inFile(name, file, needle, start, limit, origin(request)));
    }

    private void searchTopology(Request request, Response response, Callback callback, Fields query, String topologyId)
        throws IOException {
        byte[] needle = LogSearch.needle(Params.required(query, "search-string", "TEXT"));
        int limit = (int) Params.number(query, "num-matches", 1, LogSearch.MAX_MATCHES, LogSearch.DEEP_MATCHES);
        int fileOffset = (int) Params.number(query, "start-file-offset", 0, Integer.MAX_VALUE, 0);
        long byteOffset = Params.number(query, "start-byte-offset", 0, Long.MAX_VALUE, 0);
        boolean archived = Params.flag(query, "search-archived");
        Answers.json(response, callback, 200, search.inTopology(topologyId, needle, limit, query.getValue("port"),
            fileOffset, byteOffset, archived, origin(request)));
    }

    /** This logviewer as the client reached it ({@code http://HOST:PORT}), for the links in search answers. */
    private static String origin(Request request) {
        HttpURI uri = request.getHttpURI();
        return uri.getScheme() + "://" + uri.getAuthority();
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = LogViewer.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("the jar has no " + name);
            }
            return in.readAllBytes();
        }
    }
}
