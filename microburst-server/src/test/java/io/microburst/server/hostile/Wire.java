package io.microburst.server.hostile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * HTTP/1.1 as bytes over a plain socket, so that a test can send what no HTTP client library would: any request line,
 * raw bytes in the path, broken headers, bodies of tens of megabytes that the server may refuse before reading. The body
 * is written by a thread of its own while the caller reads the answer, so an answer sent before the body is read is
 * not lost when the server then closes the connection. One request per connection. Any thread.
 */
final class Wire {
    /** What came back: the status (-1 when the connection closed without an answer), the head and the body text. */
    record Answer(int status, String head, String body) {
        /** The status and the start of the body on one line, for the campaign's table. */
        String summary() {
            String text = body.replaceAll("\\s+", " ").trim();
            return status + " " + (text.length() > 150 ? text.substring(0, 150) + "..." : text);
        }
    }

    private Wire() {
    }

    /** A request with {@code Host: 127.0.0.1:PORT}, {@code Connection: close} and a body of {@code body} text. */
    static Answer request(int port, String method, String target, String headers, String body) throws IOException {
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        String head = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + headers
            + "Content-Length: " + content.length + "\r\nConnection: close\r\n\r\n";
        return raw(port, head.getBytes(StandardCharsets.UTF_8), content, 0);
    }

    /**
     * Sends {@code head}, then {@code body}, then {@code filler} bytes of 'x'; reads until the server closes. A write
     * the server cut short is not an error: it may refuse before reading.
     */
    static Answer raw(int port, byte[] head, byte[] body, long filler) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            Thread writer = new Thread(() -> {
                try {
                    out.write(head);
                    out.write(body);
                    byte[] block = new byte[64 << 10];
                    Arrays.fill(block, (byte) 'x');
                    for (long left = filler; left > 0; left -= block.length) {
                        out.write(block, 0, (int) Math.min(block.length, left));
                    }
                    out.flush();
                } catch (IOException refusedEarly) {
                    // the server answered and closed before reading everything
                }
            }, "hostile-wire-writer");
            writer.setDaemon(true);
            writer.start();
            byte[] answer = readAll(socket.getInputStream());
            return parse(answer);
        }
    }

    private static byte[] readAll(InputStream in) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                bytes.write(buffer, 0, n);
            }
        } catch (IOException reset) {
            // keep what arrived before the connection was reset
        }
        return bytes.toByteArray();
    }

    private static Answer parse(byte[] bytes) {
        String raw = new String(bytes, StandardCharsets.ISO_8859_1);
        int end = raw.indexOf("\r\n\r\n");
        if (!raw.startsWith("HTTP/") || end < 0) {
            return new Answer(-1, "", bytes.length == 0 ? "(connection closed without an answer)"
                : new String(bytes, StandardCharsets.UTF_8));
        }
        String head = raw.substring(0, end);
        int status = Integer.parseInt(head.split(" ", 3)[1]);
        boolean chunked = head.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked");
        byte[] rest = Arrays.copyOfRange(bytes, end + 4, bytes.length);
        return new Answer(status, head, new String(chunked ? unchunk(rest) : rest, StandardCharsets.UTF_8));
    }

    private static byte[] unchunk(byte[] chunked) {
        String raw = new String(chunked, StandardCharsets.ISO_8859_1);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int at = 0;
        while (at < raw.length()) {
            int lineEnd = raw.indexOf("\r\n", at);
            if (lineEnd < 0) {
                break;
            }
            int size = Integer.parseInt(raw.substring(at, lineEnd).trim(), 16);
            if (size == 0) {
                break;
            }
            int from = lineEnd + 2;
            text.write(chunked, from, Math.min(chunked.length - from, size));
            at = from + size + 2;
        }
        return text.toByteArray();
    }
}
