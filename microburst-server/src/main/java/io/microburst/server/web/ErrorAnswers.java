package io.microburst.server.web;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * What an HTTP port answers to a request Jetty refuses before any handler sees it (a path with {@code ..}, {@code //}
 * or an encoded {@code /}, {@code \} or NUL; bad UTF-8; a URI or headers over 8 KiB; a broken request line, header or
 * chunk; an unknown HTTP version), or to a request whose handler failed: one line saying what was wrong and what to do,
 * as JSON in Storm's error shape ({@code {"error": "400 Bad Request", "errorMessage": ...}}) on the UI and DRPC ports
 * or as text on the logviewer's; never Jetty's HTML page, a stack trace or a class name. Stateless; any of Jetty's
 * threads.
 */
public final class ErrorAnswers extends ErrorHandler {
    /** A Java class name, as an exception's toString() shows it: such a reason is replaced by a plain one. */
    private static final Pattern CLASS_NAME = Pattern.compile("\\b[a-z][a-z0-9_]*\\.(?:[a-z0-9_]+\\.)+[A-Z]");
    /** The most request line and headers Jetty reads (its default). */
    private static final String HEAD_LIMIT = "8 KiB";

    private final boolean json;

    /** @param json Storm's JSON error shape (UI, DRPC), else one line of text (logviewer) */
    public ErrorAnswers(boolean json) {
        this.json = json;
    }

    @Override
    public boolean errorPageForMethod(String method) {
        return true; // a refused PUT or TRACE gets its reason too
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType());
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.write(true, ByteBuffer.wrap(body(code, message)), callback);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, contentType());
        return ByteBuffer.wrap(body(status, reason));
    }

    private String contentType() {
        return json ? "application/json; charset=utf-8" : "text/plain; charset=utf-8";
    }

    private byte[] body(int code, String reason) {
        String line = line(code, reason);
        String text = json ? JSONValue.toJSONString(Map.of("error", code + " " + HttpStatus.getMessage(code),
            "errorMessage", line)) : "Refused: " + line + "\n";
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** What was wrong, from the status and Jetty's reason, and what to do. */
    static String line(int code, String reason) {
        String why = reason == null || reason.isBlank() || CLASS_NAME.matcher(reason).find()
            ? HttpStatus.getMessage(code) : reason;
        return switch (code) {
            case 400 -> "bad request (" + why + "): send a well-formed HTTP/1.1 request (a request line, a Host header, "
                + "headers as 'Name: value', a valid body) whose path has no '..', no '//' and no encoded '/', '\\' or "
                + "NUL, in UTF-8";
            case 413 -> "the request body is too large (" + why + "); send a smaller body";
            case 414 -> "the request URI is too long (" + why + "): request line and headers may take at most "
                + HEAD_LIMIT + "; send a shorter path and query";
            case 431 -> "the request headers are too large (" + why + "): request line and headers may take at most "
                + HEAD_LIMIT + "; send fewer or smaller headers";
            case 505 -> "this HTTP version is not supported (" + why + "); send HTTP/1.1 or HTTP/1.0";
            case 500 -> "the server failed to answer this request; its log says why";
            default -> why;
        };
    }
}
