package io.microburst.server;

import io.microburst.server.web.AllowedHosts;
import io.microburst.server.web.JettyServer;
import io.microburst.server.web.QueryParameters;
import io.microburst.server.web.RequestBody;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.storm.generated.AuthorizationException;
import org.apache.storm.generated.DRPCExecutionException;
import org.apache.storm.security.auth.ReqContext;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * DRPC over HTTP on {@code drpc.http.port}, as Storm's DRPC daemon serves it: {@code GET /drpc/FUNCTION/ARGS},
 * {@code GET /drpc/FUNCTION} (empty arguments) and {@code POST /drpc/FUNCTION} (the body is the arguments) answer the
 * result as text; a failed request answers Storm's JSON {@code {"error": TYPE, "errorMessage": MESSAGE}} with Storm's
 * status (400 failed request, 503 server shutting down, 504 timed out, 500 otherwise), and 401 with {@code "error": "401 Unauthorized"} when {@code drpc.authorizer} refuses;
 * arguments larger than {@value ServerConfig#HTTP_MAX_BODY_BYTES} are answered 413 before they are read. As in Storm,
 * a function no topology serves is answered when the request times out ({@code drpc.request.timeout.secs}). There is
 * no HTTP authentication here, so it listens on 127.0.0.1 only.
 */
final class DrpcHttp implements AutoCloseable {
    private static final String PREFIX = "/drpc/";

    private final DrpcService drpc;
    private final JettyServer http;
    private final long maxBodyBytes;

    /**
     * @param port the port, 0 for any free one
     * @param threads how many requests may wait for their results at once
     * @param maxBodyBytes the most arguments a POST may send
     */
    DrpcHttp(DrpcService drpc, int port, int threads, AllowedHosts allowedHosts, long maxBodyBytes) throws Exception {
        this.drpc = drpc;
        this.maxBodyBytes = maxBodyBytes;
        this.http = new JettyServer("DRPC HTTP server", "microburst-drpc-http", Math.max(threads, 4) + 4, 2,
            InetAddress.getLoopbackAddress().getHostAddress(), port, allowedHosts, new Calls(), true);
    }

    int port() {
        return http.port();
    }

    @Override
    public void close() {
        http.close();
    }

    private final class Calls extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            String path = Request.getPathInContext(request);
            String method = request.getMethod();
            if (!path.startsWith(PREFIX) || path.length() == PREFIX.length()) {
                return error(response, callback, 404, "Not Found", "no such DRPC path: " + path
                    + " (use /drpc/FUNCTION/ARGS, /drpc/FUNCTION, or POST /drpc/FUNCTION)");
            }
            String rest = path.substring(PREFIX.length());
            int slash = rest.indexOf('/');
            String function;
            String args;
            if ("GET".equals(method)) {
                function = slash < 0 ? rest : rest.substring(0, slash);
                args = slash < 0 ? "" : rest.substring(slash + 1);
                if (args.indexOf('/') >= 0) {
                    return error(response, callback, 404, "Not Found", "no such DRPC path: " + path
                        + " (the arguments are one path segment)");
                }
            } else if ("POST".equals(method) && slash < 0) {
                function = rest;
                try {
                    args = RequestBody.read(request, maxBodyBytes, "the DRPC arguments of '" + QueryParameters.shown(
                        function) + "'", ServerConfig.HTTP_MAX_BODY_BYTES);
                } catch (RequestBody.TooLarge e) {
                    return error(response, callback, 413, "413 Payload Too Large", e.getMessage());
                } catch (IllegalArgumentException e) {
                    return error(response, callback, 400, "400 Bad Request", e.getMessage());
                }
            } else {
                return error(response, callback, 405, "Method Not Allowed", method + " " + path + " is not a DRPC call");
            }
            ReqContext.reset();
            ReqContext.context().setRemoteAddress(InetAddress.getByName(Request.getRemoteAddr(request)));
            try {
                String result = drpc.executeAuthorized(function, args);
                response.setStatus(200);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain;charset=utf-8");
                response.write(true, ByteBuffer.wrap(String.valueOf(result).getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            } catch (DRPCExecutionException e) {
                int status = !e.is_set_type() ? 500 : switch (e.get_type()) {
                    case FAILED_REQUEST -> 400;
                    case SERVER_SHUTDOWN -> 503;
                    case SERVER_TIMEOUT -> 504;
                    default -> 500;
                };
                return error(response, callback, status, e.is_set_type() ? e.get_type().toString() : "Internal Error",
                    e.get_msg());
            } catch (AuthorizationException e) {
                return error(response, callback, 401, "401 Unauthorized", e.get_msg());
            } finally {
                ReqContext.reset();
            }
        }

        private boolean error(Response response, Callback callback, int status, String error, String message) {
            response.setStatus(status);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            String body = JSONValue.toJSONString(Map.of("error", error, "errorMessage", String.valueOf(message)));
            response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
            return true;
        }
    }
}
