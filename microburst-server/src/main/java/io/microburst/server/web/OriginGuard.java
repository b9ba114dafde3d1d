package io.microburst.server.web;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Refuses, before any page or API sees it, what a web page of another site could make a browser send (DNS rebinding,
 * cross-site requests): a request whose {@code Host} names neither the address the connection came in on, nor, on a loopback connection, {@code localhost}, {@code 127.0.0.1} or {@code [::1]}, nor a name the
 * operator allowed; and a state-changing request (POST, PUT, DELETE, PATCH) whose {@code Origin}, or without one its
 * {@code Referer}, is not the {@code Host} it was sent to, with the scheme the request came in on. Requests without
 * either header (curl, scripts) pass. The answer is 403 with one line of text saying what was wrong and what to do.
 * Stateless after construction; any of Jetty's request threads.
 */
final class OriginGuard extends Handler.Wrapper {
    private static final Set<String> STATE_CHANGING = Set.of("POST", "PUT", "DELETE", "PATCH");
    private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final String setting;
    private final List<String> allowed;

    OriginGuard(AllowedHosts hosts, Handler handler) {
        super(handler);
        this.setting = hosts.setting();
        this.allowed = hosts.names();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String host = request.getHeaders().get(HttpHeader.HOST);
        int port = Request.getLocalPort(request);
        String local = bare(Request.getLocalAddr(request));
        String scheme = request.isSecure() ? "https" : "http";
        String served = scheme + "://" + literal(local) + ":" + port + "/";
        if (host == null || !hostAllowed(host.trim().toLowerCase(Locale.ROOT), local)) {
            return refuse(response, callback, "Host '" + host + "' is not an address this server serves: use " + served
                + (isLoopback(local) ? " or " + scheme + "://localhost:" + port + "/" : "") + ", or add the name to "
                + setting);
        }
        if (STATE_CHANGING.contains(request.getMethod())) {
            String origin = request.getHeaders().get(HttpHeader.ORIGIN);
            String source = origin != null ? origin : request.getHeaders().get(HttpHeader.REFERER);
            if (source != null && !sameOrigin(source.trim(), host.trim(), scheme)) {
                return refuse(response, callback, request.getMethod() + " from " + (origin != null ? "Origin '" : "Referer '")
                    + source + "' is cross-origin: change state from this server's own pages (" + served
                    + ") or from a script that sends no Origin");
            }
        }
        return super.handle(request, response, callback);
    }

    /**
     * Any port: only the name tells a rebinding page's request apart, and a tunnel ({@code ssh -L 9090:127.0.0.1:8080})
     * forwards requests whose {@code Host} names its own port.
     */
    private boolean hostAllowed(String host, String local) {
        int colon = host.lastIndexOf(':');
        boolean hasPort = colon > host.lastIndexOf(']');
        String name = hasPort ? host.substring(0, colon) : host;
        String givenPort = hasPort ? host.substring(colon + 1) : "80";
        if (allowed.contains(name) || allowed.contains(name + ":" + givenPort)) {
            return true;
        }
        return isLoopback(local) && LOOPBACK_NAMES.contains(name) || isLiteral(name) && sameAddress(name, local);
    }

    /**
     * Whether {@code source} (an Origin, or a Referer URL) has the request's scheme ({@code http}, or {@code https} over
     * TLS) and exactly the authority {@code host}.
     */
    private static boolean sameOrigin(String source, String host, String requestScheme) {
        try {
            URI uri = new URI(source);
            String scheme = uri.getScheme();
            if (uri.getRawAuthority() == null || !requestScheme.equalsIgnoreCase(scheme)) {
                return false;
            }
            return withPort(uri.getRawAuthority(), scheme).equalsIgnoreCase(withPort(host, scheme));
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }

    private static String withPort(String authority, String scheme) {
        boolean hasPort = authority.lastIndexOf(':') > authority.lastIndexOf(']');
        return hasPort ? authority : authority + ":" + ("https".equalsIgnoreCase(scheme) ? "443" : "80");
    }

    private static boolean isLiteral(String name) {
        if (name.startsWith("[") && name.endsWith("]")) {
            return true;
        }
        if (!IPV4.matcher(name).matches()) {
            return false;
        }
        for (String octet : name.split("\\.")) {
            if (Integer.parseInt(octet) > 255) {
                return false;
            }
        }
        return true;
    }

    private static String bare(String address) {
        return address.startsWith("[") && address.endsWith("]") ? address.substring(1, address.length() - 1) : address;
    }

    /** Compares an address literal with the connection's address; literals never cause a name lookup. */
    private static boolean sameAddress(String literal, String local) {
        try {
            return InetAddress.getByName(bare(literal)).equals(InetAddress.getByName(local));
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static boolean isLoopback(String local) {
        try {
            return InetAddress.getByName(local).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static String literal(String address) {
        return address.indexOf(':') >= 0 ? "[" + address + "]" : address;
    }

    private static boolean refuse(Response response, Callback callback, String message) {
        response.setStatus(403);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Cache-Control", "no-store");
        response.write(true, ByteBuffer.wrap(("Refused: " + message + "\n").getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }
}
