package io.microburst.server;

import io.microburst.server.web.AllowedHosts;
import io.microburst.server.web.JettyServer;
import io.microburst.server.web.QueryParameters;
import io.microburst.server.web.ReadAccess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part of Storm's logviewer (a supervisor's port {@code logviewer.port}, 8000) that reads topologies' worker logs,
 * over {@link WorkerLogs}: {@code GET /api/v1/download?file=ID/PORT/worker.log} (the whole file),
 * {@code /api/v1/log?file=...&start=&length=} (a slice, by default the last {@value #DEFAULT_LENGTH} bytes, as plain
 * text where Storm's renders a page; of a rolled {@code worker.log.N.gz} its uncompressed text, as Storm's) and
 * {@code /api/v1/listLogs?topoId=&port=} (a JSON list of the files, the rolled ones too). A request
 * for anything outside the logs folder, or for a file that does not exist, gets 404 naming the file. Listens on the
 * server's bind address only; beyond loopback every request needs the server's token, as the web port's
 * ({@link ReadAccess}).
 */
final class LogViewer implements AutoCloseable {
    static final int DEFAULT_LENGTH = 51200;
    private static final long MAX_LENGTH = 64L << 20;
    private static final Logger LOG = LoggerFactory.getLogger(LogViewer.class);

    private final WorkerLogs logs;
    private final JettyServer http;

    LogViewer(WorkerLogs logs, String host, int port, AllowedHosts allowedHosts, ReadAccess access) throws Exception {
        this.logs = logs;
        this.http = new JettyServer("logviewer", "microburst-logviewer", 8, 1, host, port, allowedHosts,
            access.guard(new Routes(), false), false);
    }

    int port() {
        return http.port();
    }

    @Override
    public void close() {
        http.close();
    }

    private final class Routes extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            String path = Request.getPathInContext(request);
            try {
                Fields query = QueryParameters.of(request);
                if (!"GET".equals(request.getMethod())) {
                    text(response, callback, 405, "method " + request.getMethod() + " is not allowed");
                } else if (path.equals("/api/v1/download") || path.equals("/api/v1/log")) {
                    String name = query.getValue("file");
                    Path file = logs.file(name);
                    if (name == null) {
                        text(response, callback, 400, path + " needs the parameter file=TOPOLOGY_ID/PORT/worker.log");
                    } else if (file == null) {
                        text(response, callback, 404, "no such log file: " + QueryParameters.shown(name)
                            + " (name one that /api/v1/listLogs lists)");
                    } else if (path.endsWith("download")) {
                        download(response, callback, file);
                    } else {
                        slice(response, callback, file, number(query, "start", Long.MAX_VALUE),
                            number(query, "length", MAX_LENGTH));
                    }
                } else if (path.equals("/api/v1/listLogs")) {
                    number(query, "port", Integer.MAX_VALUE);
                    send(response, callback, 200, "application/json; charset=utf-8",
                        JSONValue.toJSONString(list(query.getValue("topoId"), query.getValue("port")))
                            .getBytes(StandardCharsets.UTF_8));
                } else {
                    text(response, callback, 404, "no such page: " + path);
                }
            } catch (IllegalArgumentException e) {
                text(response, callback, 400, e.getMessage());
            } catch (IOException | RuntimeException e) {
                LOG.warn("GET {} failed", path, e);
                text(response, callback, 500, "GET " + QueryParameters.shown(path) + " failed; the server's log says why");
            }
            return true;
        }
    }

    /** The parameter as a whole number from 0 to {@code max}, or null when not given; anything else is refused. */
    private static Long number(Fields query, String name, long max) {
        String value = query.getValue(name);
        if (value == null) {
            return null;
        }
        try {
            long n = Long.parseLong(value);
            if (n < 0 || n > max) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("parameter " + name + " must be a whole number from 0 to " + max + ": "
                + QueryParameters.shown(value));
        }
    }

    private static void download(Response response, Callback callback, Path file) throws IOException {
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
        response.getHeaders().put(HttpHeader.CONTENT_DISPOSITION, "attachment; filename=\"" + file.getFileName() + "\"");
        try (OutputStream out = Content.Sink.asOutputStream(response)) {
            Files.copy(file, out);
        } catch (IOException e) {
            callback.failed(e);
            return;
        }
        callback.succeeded();
    }

    /** A slice of the file's text: of a rolled, gzipped file ({@code worker.log.1.gz}) its uncompressed text, as Storm's. */
    private static void slice(Response response, Callback callback, Path file, Long start, Long length)
        throws IOException {
        boolean gzipped = file.getFileName().toString().endsWith(".gz");
        long size = gzipped ? uncompressedSize(file) : Files.size(file);
        long len = Math.min(length == null ? DEFAULT_LENGTH : length, MAX_LENGTH);
        long from = start == null ? Math.max(0, size - len) : Math.min(start, size);
        long to = Math.min(size, from + len);
        byte[] bytes = new byte[(int) Math.min(Integer.MAX_VALUE - 8, to - from)];
        try (InputStream in = gzipped ? new GZIPInputStream(Files.newInputStream(file)) : Files.newInputStream(file)) {
            in.skipNBytes(from);
            int n = in.readNBytes(bytes, 0, bytes.length);
            send(response, callback, 200, "text/plain; charset=utf-8", n == bytes.length ? bytes : Arrays.copyOf(bytes, n));
        }
    }

    private static long uncompressedSize(Path file) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return in.transferTo(OutputStream.nullOutputStream());
        }
    }

    /** The log files (relative names, as {@code file=} takes them) of a topology and/or a port, or all. */
    private List<String> list(String topologyId, String port) throws IOException {
        List<String> names = new ArrayList<>();
        Path root = logs.root();
        try (Stream<Path> files = Files.walk(root, 3)) {
            files.filter(Files::isRegularFile).map(f -> root.relativize(f)).filter(r -> r.getNameCount() == 3)
                .filter(r -> topologyId == null || r.getName(0).toString().equals(topologyId))
                .filter(r -> port == null || r.getName(1).toString().equals(port))
                .forEach(r -> names.add(r.toString()));
        }
        Collections.sort(names);
        return names;
    }

    private static void text(Response response, Callback callback, int status, String message) {
        send(response, callback, status, "text/plain; charset=utf-8", message.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(Response response, Callback callback, int status, String type, byte[] body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Cache-Control", "no-store");
        response.write(true, ByteBuffer.wrap(body), callback);
    }
}
