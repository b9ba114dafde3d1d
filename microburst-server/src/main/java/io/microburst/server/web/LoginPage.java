package io.microburst.server.web;

import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The sign-in page of a port that needs the server's token for reads ({@link ReadAuth}): {@code GET /login} shows a
 * form for the token, {@code POST /login} (a form with {@code token} and {@code next}) checks it, sets the
 * {@value ReadAuth#COOKIE} cookie (HttpOnly, so page scripts cannot read it; SameSite=Strict, so no other site's page
 * sends it; Secure over HTTPS; for the browser session, and useless after a restart, which makes a new token) and sends
 * the browser on to {@code next}, a path on this port. A wrong token gets the form again with 401. Stateless after
 * construction; any of Jetty's request threads.
 */
final class LoginPage {
    static final String PATH = "/login";
    private static final int MAX_FORM_BYTES = 4096;

    private final String token;

    LoginPage(String token) {
        this.token = token;
    }

    boolean handle(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        if ("GET".equals(method)) {
            return send(response, callback, 200, form(next(QueryParameters.of(request).getValue("next")), null));
        }
        if (!"POST".equals(method)) {
            return send(response, callback, 405, form("/", "Sign in with the form."));
        }
        String given = null;
        String next = "/";
        try {
            for (String pair : RequestBody.read(request, MAX_FORM_BYTES, "the sign-in form", "its limit").split("&")) {
                int eq = pair.indexOf('=');
                String name = eq < 0 ? pair : pair.substring(0, eq);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                if (name.equals("token")) {
                    given = value.trim();
                } else if (name.equals("next")) {
                    next = next(value);
                }
            }
        } catch (IllegalArgumentException e) {
            return send(response, callback, 400, form("/", "The form could not be read; send it again."));
        }
        if (!ReadAuth.matches(given, token)) {
            return send(response, callback, 401, form(next, "That is not the server's token: copy it from the file "
                + "ui-token in the server's data folder."));
        }
        response.getHeaders().add(HttpHeader.SET_COOKIE, ReadAuth.COOKIE + "=" + token + "; Path=/; HttpOnly; "
            + "SameSite=Strict" + (request.isSecure() ? "; Secure" : ""));
        response.getHeaders().put(HttpHeader.LOCATION, next);
        return send(response, callback, 303, form(next, null));
    }

    /** A path on this port to go on to; anything else (another site, a scheme, {@code //host}) is the index. */
    private static String next(String value) {
        return value != null && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\")
            && value.chars().noneMatch(c -> c < 0x20 || c == 0x7f) ? value : "/";
    }

    /** The form, going on to {@code next} once signed in, with a line of {@code notice} when not null. */
    static String form(String next, String notice) {
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Sign in: microburst server</title>
            <style>body{font-family:sans-serif;margin:3em auto;max-width:34em}input[type=password]{width:100%}</style>
            </head><body><h1>microburst server</h1>
            """ + (notice == null ? "" : "<p>" + escape(notice) + "</p>\n") + """
            <form method="post" action="/login">
            <p><label>The server's token (the file <code>ui-token</code> in its data folder)<br>
            <input type="password" name="token" autocomplete="current-password" autofocus required></label></p>
            <input type="hidden" name="next" value=\"""" + escape(next(next)) + """
            "><p><button type="submit">Sign in</button></p></form>
            <p>Scripts and Prometheus send the header <code>Authorization: Bearer TOKEN</code> instead.</p>
            </body></html>
            """;
    }

    static boolean send(Response response, Callback callback, int status, String html) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=utf-8");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("X-Frame-Options", "DENY");
        response.getHeaders().put("Cache-Control", "no-store");
        response.write(true, ByteBuffer.wrap(html.getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
            .replace("'", "&#39;");
    }
}
