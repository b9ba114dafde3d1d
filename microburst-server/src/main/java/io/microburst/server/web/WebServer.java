package io.microburst.server.web;

import io.microburst.MicroburstCluster;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
 * same API. Listens on the server's bind address only, over HTTP and/or HTTPS ({@link TlsSettings}); beyond loopback
 * every request needs the token ({@link ReadAuth}). Requests that change state ({@code POST} at Storm's paths
 * {@code .../activate}, {@code .../deactivate}, {@code .../kill/WAIT}, {@code .../rebalance/WAIT}, and Microburst's {@code .../upgrade} and
 * {@code .../rollback}) must carry the
 * server's token in the {@value #TOKEN_HEADER} header (or as {@code Authorization: Bearer}); the pages get it
 * embedded, so another web site cannot make a browser act on the server (no CORS header is ever sent, and {@link OriginGuard} refuses foreign hosts and origins).
 * Errors answer Storm's JSON {@code {"error": "STATUS REASON", "errorMessage": MESSAGE}}. Nothing that arrives is
 * deserialised except JSON bodies of rebalance requests ({@link RebalanceBody}).
 */
public final class WebServer implements AutoCloseable {
    /** The header that carries the token on state-changing requests. */
    public static final String TOKEN_HEADER = "X-Microburst-Token";
    /** The server's setting for the largest request body an HTTP port reads, for the 413 answer. */
    public static final String HTTP_MAX_BODY_BYTES = "microburst.server.http.max.body.bytes";
    private static final Logger LOG = LoggerFactory.getLogger(WebServer.class);
    private static final Pattern WAITLESS = Pattern.compile("/api/v1/topology/([^/]+)/(kill|rebalance)/?");
    private static final Pattern GRAPH = Pattern.compile("/api/v1/topology/([^/]+)/graph");
    private static final Pattern TUPLES = Pattern.compile("/api/v1/topology/([^/]+)/tuples");
    private static final Pattern FLAME = Pattern.compile("/api/v1/topology/([^/]+)/component/([^/]+)/flamegraph");
    private static final Pattern UPGRADE = Pattern.compile("/api/v1/topology/([^/]+)/(upgrade|rollback)");
    /** How long an upgrade request's connection may go without a byte while the new version's main runs. */
    private static final long UPGRADE_IDLE_MILLIS = 15 * 60_000L;

    private final JettyServer http;
    private final ApiRoutes api;
    private final PrometheusMetrics metrics;
    private final GraphApi graph;
    private final FlameGraphApi flame;
    private final TuplesApi tuples;
    private final PageFiles pages;
    private final UpgradeApi upgrades;
    private final String token;
    private final String tokenFile;
    private final long maxBodyBytes;

    /**
     * @param host the address to listen on
     * @param port the plain HTTP port, 0 for any free one, -1 for none (HTTPS only)
     * @param tls HTTPS on the same address, or null
     * @param allowed host names accepted besides the address it serves
     * @param access the token that state-changing requests must carry (reads too, when it says so), and its file
     * @param artifacts the folder the logviewer serves ({@code ID/PORT/worker.log}), where profiling dumps go
     * @param debug the server's debug sampling, shared with Nimbus' {@code debug}
     * @param maxBodyBytes the largest request body read ({@value #HTTP_MAX_BODY_BYTES}); larger ones are answered 413
     * @param mains runs an upgrade's new jar ({@code POST .../upgrade})
     */
    public WebServer(Nimbus.Iface nimbus, MicroburstCluster cluster, String host, int port, TlsSettings tls,
                     AllowedHosts allowed, ReadAccess access, Path artifacts,
                     DebugSampling debug, long maxBodyBytes, JarMains mains) throws Exception {
        this.upgrades = new UpgradeApi(nimbus, mains);
        this.api = new ApiRoutes(nimbus, cluster, artifacts, debug);
        this.metrics = new PrometheusMetrics(cluster);
        this.graph = new GraphApi(nimbus, cluster);
        this.flame = new FlameGraphApi(cluster);
        this.tuples = new TuplesApi(cluster);
        this.pages = new PageFiles(access.token());
        this.token = access.token();
        this.tokenFile = access.tokenFile();
        this.maxBodyBytes = maxBodyBytes;
        this.http = new JettyServer("web server", "microburst-web", 16, 2, host, port, tls, allowed,
            access.guard(new Routes(), true), true);
    }

    /** The plain HTTP port, or -1 when it serves HTTPS only. */
    public int port() {
        return http.port();
    }

    /** The HTTPS port, or -1 without HTTPS. */
    public int httpsPort() {
        return http.httpsPort();
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

        private void get(Request request, Response response, Callback callback, String path) throws Exception {
            Fields query = QueryParameters.of(request);
            QueryParameters.flag(query, "sys");
            Matcher m;
            PageFiles.File file;
            if ((m = GRAPH.matcher(path)).matches()) {
                json(response, callback, 200, graph.of(m.group(1)));
                return;
            } else if ((m = TUPLES.matcher(path)).matches()) {
                json(response, callback, 200, tuples.of(m.group(1)));
                return;
            } else if ((m = FLAME.matcher(path)).matches()) {
                json(response, callback, 200, flame.of(m.group(1), m.group(2), query.getValue("seconds")));
                return;
            }
            if (path.startsWith("/api/v1/")) {
                if (ApiRoutes.acts(path) && !ReadAuth.matches(ReadAuth.presented(request), token)) {
                    json(response, callback, 403, noToken("GET", path));
                    return;
                }
                Map<String, Object> answer = api.get(path, query);
                if (answer != null) {
                    json(response, callback, 200, answer);
                    return;
                }
            }
            if (path.equals("/metrics")) {
                send(response, callback, 200, metrics.contentType(), metrics.answer());
            } else if ((file = pages.find(path)) != null) {
                send(response, callback, 200, file.type(), file.bytes());
            } else {
                json(response, callback, 404, error(404, "no such page: " + path));
            }
        }

        private void post(Request request, Response response, Callback callback, String path) throws Exception {
            Matcher upgrade = UPGRADE.matcher(path);
            if (!ApiRoutes.isAction(path) && !upgrade.matches()) {
                Matcher waitless = WAITLESS.matcher(path);
                json(response, callback, 404, error(404, waitless.matches()
                    ? "no such operation: " + path + "; Storm's path is " + path.replaceAll("/$", "")
                    + "/WAIT_SECONDS (for example /" + waitless.group(2) + "/30; 0 for at once)"
                    : "no such operation: " + path + " (use /api/v1/topology/ID/activate, /deactivate, /kill/WAIT_SECONDS, "
                    + "/rebalance/WAIT_SECONDS, /upgrade, /rollback, /logconfig, /debug/enable|disable/PERCENT or "
                    + "/component/COMPONENT/debug/enable|disable/PERCENT)"));
                return;
            }
            if (!ReadAuth.matches(ReadAuth.presented(request), token)) {
                json(response, callback, 403, noToken("POST", path));
                return;
            }
            if (upgrade.matches()) {
                json(response, callback, 200, upgrade(request, upgrade.group(1), upgrade.group(2)));
                return;
            }
            json(response, callback, 200, api.post(path, () -> RequestBody.read(request, maxBodyBytes,
                "the body of POST " + path, HTTP_MAX_BODY_BYTES)));
        }

        /** Microburst's upgrade or rollback ({@link UpgradeApi}); the request waits while the new version starts. */
        private Map<String, Object> upgrade(Request request, String id, String what) throws Exception {
            if ("rollback".equals(what)) {
                return upgrades.rollback(id);
            }
            Fields query = QueryParameters.of(request);
            request.getConnectionMetaData().getConnection().getEndPoint().setIdleTimeout(UPGRADE_IDLE_MILLIS);
            try (UpgradeBody body = new UpgradeBody(request)) {
                return upgrades.upgrade(id, query, body);
            }
        }

        private Map<String, Object> noToken(String method, String path) {
            return error(403, method + " " + path + " changes state and needs the server's token "
                + "in the " + TOKEN_HEADER + " header: it is in the file " + tokenFile + " (readable by the server's "
                + "user), e.g. curl -X " + method + " -H \"" + TOKEN_HEADER + ": $(cat " + tokenFile + ")\" URL");
        }
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
