package io.microburst.server.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import javax.net.SocketFactory;

/**
 * HTTP/1.1 over a plain socket, so that a test can send any {@code Host} header (Java's HTTP client refuses to set
 * it), as a browser tricked by DNS rebinding would. One request per connection.
 */
final class RawHttp {
    /** A response: status, body text and the head (status line and headers). */
    record Answer(int status, String body, String head) {
        /** The value of the first header named {@code name} (any case), or null. */
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    private RawHttp() {
    }

    static Answer send(int port, String method, String path, String host, Map<String, String> headers, String body)
        throws IOException {
        return send(SocketFactory.getDefault(), "127.0.0.1", port, method, path, host, headers, body);
    }

    /** As above, to {@code address}, over sockets from {@code sockets} (TLS ones for HTTPS). */
    static Answer send(SocketFactory sockets, String address, int port, String method, String path, String host,
                       Map<String, String> headers, String body) throws IOException {
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder request = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        if (host != null) {
            request.append("Host: ").append(host).append("\r\n");
        }
        headers.forEach((k, v) -> request.append(k).append(": ").append(v).append("\r\n"));
        request.append("Content-Length: ").append(content.length).append("\r\nConnection: close\r\n\r\n");
        try (Socket socket = sockets.createSocket(address, port)) {
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(content);
            out.flush();
            String raw = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int end = raw.indexOf("\r\n\r\n");
            String head = raw.substring(0, end);
            String rest = raw.substring(end + 4);
            int status = Integer.parseInt(head.split(" ", 3)[1]);
            boolean chunked = head.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked");
            return new Answer(status, chunked ? unchunk(rest) : rest, head);
        }
    }

    private static String unchunk(String chunked) {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int at = 0;
        while (true) {
            int lineEnd = chunked.indexOf("\r\n", at);
            int size = Integer.parseInt(chunked.substring(at, lineEnd).trim(), 16);
            if (size == 0) {
                return text.toString(StandardCharsets.UTF_8);
            }
            text.writeBytes(chunked.substring(lineEnd + 2, lineEnd + 2 + size).getBytes(StandardCharsets.UTF_8));
            at = lineEnd + 2 + size + 2;
        }
    }
}
