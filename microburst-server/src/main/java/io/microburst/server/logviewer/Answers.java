package io.microburst.server.logviewer;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * How the logviewer answers: text, JSON (Storm's error shape {@code {"error": "400 Bad Request", "errorMessage":
 * ...}} for its JSON endpoints), a page, a file to download; never cached, never sniffed. Stateless; the request's
 * thread.
 */
final class Answers {
    static final String HTML = "text/html; charset=utf-8";
    static final String TEXT = "text/plain; charset=utf-8";
    static final String JSON = "application/json; charset=utf-8";

    private Answers() {
    }

    static void text(Response response, Callback callback, int status, String message) {
        send(response, callback, status, TEXT, message.getBytes(StandardCharsets.UTF_8));
    }

    static void json(Response response, Callback callback, int status, Object body) {
        send(response, callback, status, JSON, JSONValue.toJSONString(body).getBytes(StandardCharsets.UTF_8));
    }

    /** Storm's error JSON with a one-line message. */
    static void jsonError(Response response, Callback callback, int status, String message) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("error", status + " " + HttpStatus.getMessage(status));
        error.put("errorMessage", message);
        json(response, callback, status, error);
    }

    static void send(Response response, Callback callback, int status, String type, byte[] body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Cache-Control", "no-store");
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    /** The whole file as it is on disk (a rolled file stays gzipped), as an attachment. */
    static void download(Response response, Callback callback, Path file) throws IOException {
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
        response.getHeaders().put(HttpHeader.CONTENT_DISPOSITION, "attachment; filename=\"" + file.getFileName() + "\"");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        try (OutputStream out = Content.Sink.asOutputStream(response)) {
            Files.copy(file, out);
        } catch (IOException e) {
            callback.failed(e);
            return;
        }
        callback.succeeded();
    }
}
