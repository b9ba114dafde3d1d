package io.microburst.server.web;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Authentication of every request, reads included, on an HTTP port that listens beyond loopback (or when the operator
 * asks for it): the request must carry the server's token as {@code Authorization: Bearer TOKEN} (scripts,
 * Prometheus), in the {@value WebServer#TOKEN_HEADER} header, or in the {@value #COOKIE} cookie that {@link LoginPage}
 * sets for a browser (HttpOnly, SameSite=Strict, Secure over HTTPS). Anything else gets 401 with one line saying how to
 * pass the token (Storm's JSON error shape or text, as the port answers), a page a browser asks for gets the sign-in
 * form. The cookie never counts for a state change: those still need the token in a header (see {@link #presented}),
 * which no other site can make a browser send. Without {@code required} every request passes, as before. Stateless
 * after construction; any of Jetty's request threads.
 */
public final class ReadAuth extends Handler.Wrapper {
    /** The cookie that carries the token for a browser that signed in. */
    static final String COOKIE = "microburst-token";

    private final String token;
    private final String tokenFile;
    private final boolean required;
    private final boolean jsonErrors;
    private final LoginPage login;

    /**
     * @param token the server's token
     * @param tokenFile where the token is, for the advice
     * @param required whether requests need the token (the port listens beyond loopback, or the operator says so)
     * @param jsonErrors whether a refusal is Storm's JSON error shape (else one line of text)
     */
    public ReadAuth(String token, String tokenFile, boolean required, boolean jsonErrors, Handler handler) {
        super(handler);
        this.token = token;
        this.tokenFile = tokenFile;
        this.required = required;
        this.jsonErrors = jsonErrors;
        this.login = new LoginPage(token);
    }

    /** Whether requests need the token. */
    public boolean required() {
        return required;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!required) {
            return super.handle(request, response, callback);
        }
        String path = Request.getPathInContext(request);
        if (path.equals(LoginPage.PATH)) {
            return login.handle(request, response, callback);
        }
        if (matches(presented(request), token) || matches(cookie(request), token)) {
            return super.handle(request, response, callback);
        }
        response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer realm=\"microburst\"");
        if (wantsPage(request, path)) {
            String target = path + (request.getHttpURI().getQuery() == null ? "" : "?" + request.getHttpURI().getQuery());
            return LoginPage.send(response, callback, 401, LoginPage.form(target, "This server needs its token to be "
                + "read beyond its own machine."));
        }
        String message = request.getMethod() + " " + QueryParameters.shown(path) + " needs the server's token, as this "
            + "port listens beyond loopback: send the header 'Authorization: Bearer TOKEN' (curl -H \"Authorization: "
            + "Bearer $(cat " + tokenFile + ")\" URL; Prometheus: authorization credentials_file), or sign in at "
            + LoginPage.PATH + " in a browser; the token is in " + tokenFile + ", readable by the server's user";
        byte[] body = (jsonErrors ? JSONValue.toJSONString(Map.of("error", "401 Unauthorized", "errorMessage", message))
            : message + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(401);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, jsonErrors ? "application/json; charset=utf-8"
            : "text/plain; charset=utf-8");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Cache-Control", "no-store");
        response.write(true, ByteBuffer.wrap(body), callback);
        return true;
    }

    /**
     * The token a request carries in a header ({@value WebServer#TOKEN_HEADER}, or {@code Authorization: Bearer}), or
     * null: what a state change must carry, since no web page of another site can make a browser send either.
     */
    static String presented(Request request) {
        String header = request.getHeaders().get(WebServer.TOKEN_HEADER);
        if (header != null) {
            return header.trim();
        }
        String authorization = request.getHeaders().get(HttpHeader.AUTHORIZATION);
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return authorization.substring(7).trim();
        }
        return null;
    }

    /** Compares in constant time. */
    static boolean matches(String given, String token) {
        return given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
            token.getBytes(StandardCharsets.UTF_8));
    }

    private static String cookie(Request request) {
        for (HttpCookie cookie : Request.getCookies(request)) {
            if (COOKIE.equals(cookie.getName())) {
                return cookie.getValue();
            }
        }
        return null;
    }

    /** A browser asking for a page (not the REST API, not metrics): it is shown the sign-in form. */
    private static boolean wantsPage(Request request, String path) {
        String accept = request.getHeaders().get(HttpHeader.ACCEPT);
        return "GET".equals(request.getMethod()) && accept != null && accept.contains("text/html")
            && !path.startsWith("/api/") && !path.equals("/metrics");
    }
}
