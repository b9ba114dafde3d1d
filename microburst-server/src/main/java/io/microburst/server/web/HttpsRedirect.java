package io.microburst.server.web;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Plain HTTP beside HTTPS on an address beyond loopback ({@code ui.disable.http.binding: false}): every plain request
 * is sent to the same path on the HTTPS port (308, so a POST stays a POST) and nothing else is answered, so neither
 * the pages, the API, the token nor a sign-in form ever crosses the network in clear. Runs after {@link OriginGuard},
 * so the name it redirects to is one the port serves. Requests over TLS pass. Stateless; any request thread.
 */
final class HttpsRedirect extends Handler.Wrapper {
    private final int httpsPort;

    HttpsRedirect(int httpsPort, Handler handler) {
        super(handler);
        this.httpsPort = httpsPort;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (request.isSecure()) {
            return super.handle(request, response, callback);
        }
        String host = request.getHeaders().get(HttpHeader.HOST).trim().toLowerCase(Locale.ROOT);
        boolean hasPort = host.lastIndexOf(':') > host.lastIndexOf(']');
        String name = hasPort ? host.substring(0, host.lastIndexOf(':')) : host;
        String query = request.getHttpURI().getQuery();
        String target = "https://" + name + ":" + httpsPort + request.getHttpURI().getPath()
            + (query == null ? "" : "?" + query);
        response.setStatus(308);
        response.getHeaders().put(HttpHeader.LOCATION, target);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.getHeaders().put("Cache-Control", "no-store");
        String line = "This port answers over HTTPS only beyond loopback: use " + target + "\n";
        response.write(true, ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }
}
