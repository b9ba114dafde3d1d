package io.microburst.server.web;

import io.microburst.MicroburstCluster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.storm.generated.AlreadyAliveException;
import org.apache.storm.generated.AuthorizationException;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.thrift.TException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's web face on Jetty: the Storm UI REST API under {@code /api/v1/}, Prometheus metrics at
 * {@code /metrics}, Microburst's own runtime view under {@code /api/v1/topology/{id}/runtime} (fused threads, queue
 * fill, backpressure, latency histograms), and pages for people ({@code /}, {@code /topology.html}, {@code /component.html}) that read the
 * same API. Listens on the server's bind address only. Requests that change state ({@code POST} at Storm's paths
 * {@code .../activate}, {@code .../deactivate}, {@code .../kill/WAIT}, {@code .../rebalance/WAIT}) must carry the
 * server's token in the {@value #TOKEN_HEADER} header; the pages get it embedded, so another web site cannot make a
 * browser act on the server (no CORS header is ever sent, and {@link OriginGuard} refuses foreign hosts and origins).
 * Errors answer Storm's JSON {@code {"error": "STATUS REASON", "errorMessage": MESSAGE}}. Nothing that arrives is
 * deserialised except JSON bodies of rebalance requests ({@link RebalanceBody}).
 */
public final class WebServer implements AutoCloseable {
    /** The header that carries the token on state-changing requests. */
    public static final String TOKEN_HEADER = "X-Microburst-Token";
    /** The server's setting for the largest request body an HTTP port reads, for the 413 answer. */
    public static final String HTTP_MAX_BODY_BYTES = "microburst.server.http.max.body.bytes";
    private static final Logger LOG = LoggerFactory.getLogger(WebServer.class);
    private static final Pattern TOPOLOGY = Pattern.compile("/api/v1/topology/([^/]+)");
    private static final Pattern COMPONENT = Pattern.compile("/api/v1/topology/([^/]+)/component/([^/]+)");
    private static final Pattern VISUALIZATION = Pattern.compile("/api/v1/topology/([^/]+)/visualization");
    private static final Pattern RUNTIME = Pattern.compile("/api/v1/topology/([^/]+)/runtime");
    private static final Pattern GRAPH = Pattern.compile("/api/v1/topology/([^/]+)/graph");
    private static final Pattern FLAME = Pattern.compile("/api/v1/topology/([^/]+)/component/([^/]+)/flamegraph");
    /** Storm's paths: {@code activate}, {@code deactivate}, {@code kill/WAIT}, {@code rebalance/WAIT}. */
    private static final Pattern ACTION = Pattern.compile(
        "/api/v1/topology/([^/]+)/(?:(activate|deactivate)|(kill|rebalance)/([^/]+))");
    private static final Pattern WAITLESS = Pattern.compile("/api/v1/topology/([^/]+)/(kill|rebalance)/?");

    private final JettyServer http;
    private final RestApi api;
    private final Visualization visualization;
    private final PrometheusMetrics metrics;
    private final RuntimeApi runtime;
    private final GraphApi graph;
    private final FlameGraphApi flame;
    private final PageFiles pages;
    private final String token;
    private final String tokenFile;
    private final long maxBodyBytes;

    /**
     * @param host the address to listen on
     * @param port the port, 0 for any free one
     * @param allowed host names accepted besides the address it serves
     * @param token the secret that state-changing requests must carry
     * @param tokenFile where a script finds the token, for the advice when it is missing
     * @param maxBodyBytes the largest request body read ({@value #HTTP_MAX_BODY_BYTES}); larger ones are answered 413
     */
    public WebServer(Nimbus.Iface nimbus, MicroburstCluster cluster, String host, int port, AllowedHosts allowed,
                     String token, String tokenFile, long maxBodyBytes) throws Exception {
        this.api = new RestApi(nimbus);
        this.visualization = new Visualization(nimbus);
        this.metrics = new PrometheusMetrics(cluster);
        this.runtime = new RuntimeApi(cluster);
        this.graph = new GraphApi(nimbus, cluster);
        this.flame = new FlameGraphApi(cluster);
        this.pages = new PageFiles(token);
        this.token = token;
        this.tokenFile = tokenFile;
        this.maxBodyBytes = maxBodyBytes;
        this.http = new JettyServer("web server", "microburst-web", 16, 2, host, port, allowed, new Routes(), true);
    }

    public int port() {
        return http.port();
    }

    @Override
    public void close() {
        http.close();
    }

    private final class Routes extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            String path = Request.getPathInContext(request);
            String method = request.getMethod();
            try {
                if ("GET".equals(method)) {
                    get(request, response, callback, path);
                } else if ("POST".equals(method)) {
                    post(request, response, callback, path);
                } else {
                    json(response, callback, 405, error(405, "method " + method + " is not allowed"));
                }
            } catch (NotAliveException e) {
                json(response, callback, 404, error(404, e.get_msg()));
            } catch (InvalidTopologyException e) {
                json(response, callback, 400, error(400, e.get_msg()));
            } catch (AlreadyAliveException e) {
                json(response, callback, 409, error(409, e.get_msg()));
            } catch (AuthorizationException e) {
                json(response, callback, 403, error(403, e.get_msg()));
            } catch (RequestBody.TooLarge e) {
                json(response, callback, 413, error(413, e.getMessage()));
            } catch (IllegalArgumentException e) {
                json(response, callback, 400, error(400, e.getMessage()));
            } catch (Exception e) {
                LOG.warn("{} {} failed", method, path, e);
                json(response, callback, 500, error(500, method + " " + QueryParameters.shown(path)
                    + " failed; the server's log says why"));
            }
            return true;
        }

        private void get(Request request, Response response, Callback callback, String path)
            throws TException, IOException, InterruptedException {
            Fields query = QueryParameters.of(request);
            QueryParameters.flag(query, "sys");
            String window = query.getValue("window");
            Matcher m;
            PageFiles.File file;
            if (path.equals("/api/v1/cluster/summary")) {
                json(response, callback, 200, api.clusterSummary());
            } else if (path.equals("/api/v1/topology/summary")) {
                json(response, callback, 200, api.topologySummary());
            } else if ((m = FLAME.matcher(path)).matches()) {
                json(response, callback, 200, flame.of(m.group(1), m.group(2),
                    Request.extractQueryParameters(request).getValue("seconds")));
            } else if ((m = COMPONENT.matcher(path)).matches()) {
                json(response, callback, 200, api.component(m.group(1), m.group(2), window));
            } else if ((m = VISUALIZATION.matcher(path)).matches()) {
                json(response, callback, 200, visualization.of(m.group(1)));
            } else if ((m = RUNTIME.matcher(path)).matches()) {
                json(response, callback, 200, runtime.of(m.group(1)));
            } else if ((m = GRAPH.matcher(path)).matches()) {
                json(response, callback, 200, graph.of(m.group(1)));
            } else if ((m = TOPOLOGY.matcher(path)).matches()) {
                json(response, callback, 200, api.topology(m.group(1), window));
            } else if (path.equals("/metrics")) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                metrics.write(out);
                send(response, callback, 200, metrics.contentType(), out.toByteArray());
            } else if ((file = pages.find(path)) != null) {
                send(response, callback, 200, file.type(), file.bytes());
            } else {
                json(response, callback, 404, error(404, "no such page: " + path));
            }
        }

        private void post(Request request, Response response, Callback callback, String path) throws Exception {
            Matcher m = ACTION.matcher(path);
            if (!m.matches()) {
                Matcher waitless = WAITLESS.matcher(path);
                json(response, callback, 404, error(404, waitless.matches()
                    ? "no such operation: " + path + "; Storm's path is " + path.replaceAll("/$", "")
                    + "/WAIT_SECONDS (for example /" + waitless.group(2) + "/30; 0 for at once)"
                    : "no such operation: " + path + " (use /api/v1/topology/ID/activate, /deactivate, /kill/WAIT_SECONDS "
                    + "or /rebalance/WAIT_SECONDS)"));
                return;
            }
            if (!tokenMatches(request.getHeaders().get(TOKEN_HEADER))) {
                json(response, callback, 403, error(403, "POST " + path + " changes state and needs the server's token "
                    + "in the " + TOKEN_HEADER + " header: it is in the file " + tokenFile + " (readable by the server's "
                    + "user), e.g. curl -X POST -H \"" + TOKEN_HEADER + ": $(cat " + tokenFile + ")\" URL"));
                return;
            }
            String id = m.group(1);
            Map<String, Object> result = switch (m.group(2) != null ? m.group(2) : m.group(3)) {
                case "activate" -> api.activate(id, true);
                case "deactivate" -> api.activate(id, false);
                case "kill" -> api.kill(id, waitSecs(m.group(4)));
                default -> api.rebalance(id, waitSecs(m.group(4)), RequestBody.read(request, maxBodyBytes,
                    "the rebalance request for topology '" + id + "'", HTTP_MAX_BODY_BYTES));
            };
            json(response, callback, 200, result);
        }
    }

    private static int waitSecs(String wait) {
        if (!wait.matches("\\d{1,9}")) {
            throw new IllegalArgumentException("the wait time must be a whole number of seconds, 0 or more: '" + wait + "'");
        }
        return Integer.parseInt(wait);
    }

    private boolean tokenMatches(String given) {
        return given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
            token.getBytes(StandardCharsets.UTF_8));
    }

    /** Storm's error JSON: {@code {"error": "404 Not Found", "errorMessage": "..."}}. */
    private static Map<String, Object> error(int status, String message) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("error", status + " " + HttpStatus.getMessage(status));
        json.put("errorMessage", String.valueOf(message));
        return json;
    }

    private static void json(Response response, Callback callback, int status, Map<String, Object> body) {
        send(response, callback, status, "application/json; charset=utf-8",
            JSONValue.toJSONString(body).getBytes(StandardCharsets.UTF_8));
    }

    private static void send(Response response, Callback callback, int status, String type, byte[] body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Cache-Control", "no-store");
        response.write(true, ByteBuffer.wrap(body), callback);
    }
}
