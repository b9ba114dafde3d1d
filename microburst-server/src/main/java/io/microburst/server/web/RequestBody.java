package io.microburst.server.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * Reads a request's body as text, up to a limit: a body announced or found larger is refused with
 * {@link TooLarge} (answered 413) before more than the limit is held in memory, and a body that cannot be read (a
 * broken chunk, a connection cut short) with an {@link IllegalArgumentException} (answered 400). Stateless; the
 * request's thread.
 */
public final class RequestBody {
    private RequestBody() {
    }

    /** A body over the limit; its message names the limit and its setting. */
    public static final class TooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public TooLarge(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * The body as UTF-8 text.
     *
     * @param what what the body is, for the messages ("the rebalance request", "the DRPC arguments")
     * @param setting the key that sets {@code maxBytes}
     */
    public static String read(Request request, long maxBytes, String what, String setting) {
        long announced = request.getLength();
        if (announced > maxBytes) {
            throw tooLarge(what, announced + " bytes", maxBytes, setting);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try (InputStream in = Content.Source.asInputStream(request)) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                if (bytes.size() + (long) n > maxBytes) {
                    throw tooLarge(what, "more than " + maxBytes + " bytes", maxBytes, setting);
                }
                bytes.write(buffer, 0, n);
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof TooLarge tooLarge) {
                throw tooLarge;
            }
            throw new IllegalArgumentException("the body of " + what + " could not be read (" + reason(e)
                + "): send a complete body, with a correct Content-Length or well-formed chunks");
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String reason(Exception e) {
        String message = e.getMessage();
        return message == null || message.isBlank() || message.contains("Exception") ? "broken or cut short" : message;
    }

    private static TooLarge tooLarge(String what, String size, long maxBytes, String setting) {
        return new TooLarge("the body of " + what + " is larger than " + maxBytes + " bytes (" + size + "; the limit is "
            + setting + "): send a smaller body");
    }
}
