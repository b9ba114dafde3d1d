package io.microburst.server;

import io.microburst.server.web.AllowedHosts;
import io.microburst.server.web.WebServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.security.auth.SimpleTransportPlugin;
import org.apache.storm.utils.ConfigUtils;
import org.apache.storm.utils.ObjectReader;

/**
 * Configuration keys of {@code microburst server}, read from the same map as Storm's own keys (storm.yaml, then
 * {@code -c} overrides). Storm's keys it honours: {@code nimbus.thrift.port}, {@code nimbus.thrift.max_buffer_size},
 * {@code nimbus.thrift.threads}, {@code nimbus.file.copy.expiration.secs} (idle uploads), {@code ui.port} (pages,
 * REST API, metrics), the UI's HTTPS keys ({@code ui.https.*}, {@code ui.disable.http.binding}:
 * {@link io.microburst.server.web.TlsSettings}), {@code logviewer.port} (worker logs) and the logviewer's HTTPS keys
 * ({@code logviewer.https.*}, {@code logviewer.disable.http.binding}), {@code nimbus.thrift.transport} /
 * {@code storm.thrift.transport} (authentication);
 * with {@value #DRPC} on, Storm's DRPC daemon keys: {@code drpc.port}, {@code drpc.invocations.port},
 * {@code drpc.http.port}, {@code drpc.request.timeout.secs}, {@code drpc.authorizer}, {@code drpc.thrift.transport},
 * {@code drpc.invocations.thrift.transport}, {@code drpc.worker.threads}, {@code drpc.invocations.threads},
 * {@code drpc.queue.size}, {@code drpc.max_buffer_size}.
 */
public final class ServerConfig {
    /** String, default {@value #DEFAULT_DIR}: where submitted topologies (jar, configuration, status) are kept. */
    public static final String DIR = "microburst.server.dir";
    /**
     * String, default {@value #DEFAULT_BIND}: the address the Thrift service listens on. Any other than a loopback
     * address requires authentication to be configured, or the server refuses to start.
     */
    public static final String BIND = "microburst.server.bind";
    /** Long, default 256 MiB: the largest topology jar an upload may send. */
    public static final String UPLOAD_MAX_BYTES = "microburst.server.upload.max.bytes";
    /**
     * Long, default 2 GiB: the most an uploaded jar's entries may add up to once expanded; a jar that would expand to
     * more (a zip bomb) is refused when its upload finishes.
     */
    public static final String UPLOAD_MAX_EXPANDED_BYTES = "microburst.server.upload.max.expanded.bytes";
    /** Int, default 16: how many jar uploads may be in progress at once; one more is refused until one ends. */
    public static final String UPLOAD_MAX_OPEN = "microburst.server.upload.max.open";
    /**
     * Storm's key (storm-server's DaemonConfig), default 600: seconds an upload may go without a chunk, or a finished
     * upload without its submission, before it is dropped and its file deleted.
     */
    public static final String FILE_COPY_EXPIRATION_SECS = "nimbus.file.copy.expiration.secs";
    /**
     * Long, default 600: seconds the new version's main may run for an upgrade through the web port (in a JVM of its
     * own, {@link ChildJvmSubmit}) before it is stopped and the upgrade answered as failed.
     */
    public static final String UPGRADE_MAIN_TIMEOUT_SECS = "microburst.server.upgrade.main.timeout.secs";
    /** Long, default 1 MiB: the largest request body an HTTP port reads (rebalance requests, DRPC arguments). */
    public static final String HTTP_MAX_BODY_BYTES = WebServer.HTTP_MAX_BODY_BYTES;

    /**
     * Boolean, default false: also serve DRPC, as Storm's DRPC daemon ({@code storm drpc}) does, on {@code drpc.port}
     * (3772), {@code drpc.invocations.port} (3773) and {@code drpc.http.port} (3774, HTTP on 127.0.0.1 only; negative:
     * none). Topologies the server runs are given {@code drpc.servers} and {@code drpc.invocations.port} pointing at it.
     */
    public static final String DRPC = "microburst.server.drpc";
    /** Storm's key (storm-server's DaemonConfig): seconds a DRPC request waits for its result, default 600. */
    public static final String DRPC_REQUEST_TIMEOUT_SECS = "drpc.request.timeout.secs";
    /** Storm's key (storm-server's DaemonConfig): the {@code IAuthorizer} class that authorizes DRPC calls. */
    public static final String DRPC_AUTHORIZER = "drpc.authorizer";
    /** Storm's key (storm-server's DaemonConfig): the port of DRPC over HTTP; negative: no HTTP. */
    public static final String DRPC_HTTP_PORT = "drpc.http.port";

    /** Storm's key for the UI's port (storm-server's DaemonConfig), here also the REST API's and the metrics'. */
    public static final String UI_PORT = "ui.port";
    /**
     * Storm's key for the logviewer's port (8000 in Storm's defaults): here the topologies' worker logs
     * ({@link LogViewer}); when the port is taken the server runs without it and says so.
     */
    public static final String LOGVIEWER_PORT = "logviewer.port";

    /**
     * List of strings (or one string, names separated by commas), default none: host names the HTTP ports (UI and
     * REST API, logviewer, DRPC over HTTP) accept in a request's {@code Host} besides the address they serve (and
     * {@code localhost}, {@code 127.0.0.1}, {@code [::1]} on loopback) and the server's advertised host name; each
     * {@code name} (any port) or {@code name:port}. Any other {@code Host} is refused, against DNS rebinding: name here
     * only names that resolve to this server, such as the name a reverse proxy forwards.
     */
    public static final String HTTP_ALLOWED_HOSTS = "microburst.server.http.allowed.hosts";

    /**
     * Boolean, default false: whether every request to the web and logviewer ports, reads included, needs the server's
     * token ({@code Authorization: Bearer}, or a browser's sign-in cookie). Always so when {@value #BIND} is beyond
     * loopback, whatever this says; true asks for it on loopback too (a machine shared with other users).
     */
    public static final String HTTP_READ_AUTH = "microburst.server.http.read.auth";

    /**
     * Long, default 100 MiB (the size at which Storm's {@code log4j2/worker.xml} rolls a worker's log, which no Storm
     * key sets): the size past which a topology's {@code worker.log} rolls to {@code worker.log.1.gz}.
     */
    public static final String WORKER_LOG_MAX_BYTES = "microburst.server.worker.log.max.bytes";

    /**
     * Int, default {@value #DEFAULT_STOP_WAIT_SECS}: at a graceful stop (SIGTERM, {@code systemctl stop}), how long the
     * server waits, with every spout deactivated, for the tuples in flight to be processed before it stops the
     * topologies ({@link GracefulDrain}); 0: no wait.
     */
    public static final String STOP_WAIT_SECS = "microburst.server.stop.wait.secs";
    public static final int DEFAULT_STOP_WAIT_SECS = 30;

    public static final String DEFAULT_DIR = "microburst-data";
    public static final String DEFAULT_BIND = "127.0.0.1";
    public static final long DEFAULT_UPLOAD_MAX_BYTES = 256L << 20;
    public static final long DEFAULT_UPLOAD_MAX_EXPANDED_BYTES = 2L << 30;
    public static final int DEFAULT_UPLOAD_MAX_OPEN = 16;
    public static final int DEFAULT_FILE_COPY_EXPIRATION_SECS = 600;
    public static final long DEFAULT_HTTP_MAX_BODY_BYTES = 1L << 20;

    private ServerConfig() {
    }

    static Path dir(Map<String, Object> conf) {
        return Path.of(ObjectReader.getString(conf.get(DIR), DEFAULT_DIR));
    }

    static String bind(Map<String, Object> conf) {
        return ObjectReader.getString(conf.get(BIND), DEFAULT_BIND);
    }

    static long uploadMaxBytes(Map<String, Object> conf) {
        return positive(conf, UPLOAD_MAX_BYTES, DEFAULT_UPLOAD_MAX_BYTES);
    }

    /** The limits of jar uploads, from their keys. */
    static UploadLimits uploadLimits(Map<String, Object> conf) {
        return new UploadLimits(uploadMaxBytes(conf), positive(conf, UPLOAD_MAX_EXPANDED_BYTES,
            DEFAULT_UPLOAD_MAX_EXPANDED_BYTES), (int) Math.min(Integer.MAX_VALUE, positive(conf, UPLOAD_MAX_OPEN,
            DEFAULT_UPLOAD_MAX_OPEN)), positive(conf, FILE_COPY_EXPIRATION_SECS, DEFAULT_FILE_COPY_EXPIRATION_SECS));
    }

    static long upgradeMainTimeoutSecs(Map<String, Object> conf) {
        return positive(conf, UPGRADE_MAIN_TIMEOUT_SECS, 600);
    }

    static long httpMaxBodyBytes(Map<String, Object> conf) {
        return positive(conf, HTTP_MAX_BODY_BYTES, DEFAULT_HTTP_MAX_BODY_BYTES);
    }

    /** A whole number more than 0 under {@code key}, or {@code otherwise} when unset; anything else refused by key. */
    private static long positive(Map<String, Object> conf, String key, long otherwise) {
        Object value = conf.get(key);
        if (value == null) {
            return otherwise;
        }
        if (!(value instanceof Number number) || number.doubleValue() != number.longValue() || number.longValue() <= 0) {
            throw new IllegalArgumentException(key + " must be a whole number more than 0: " + value);
        }
        return number.longValue();
    }

    static long workerLogMaxBytes(Map<String, Object> conf) {
        Object value = conf.get(WORKER_LOG_MAX_BYTES);
        if (value == null) {
            return WorkerLogs.DEFAULT_MAX_BYTES;
        }
        if (!(value instanceof Number number) || number.longValue() <= 0) {
            throw new IllegalArgumentException(WORKER_LOG_MAX_BYTES + " must be a number of bytes, more than 0: " + value);
        }
        return number.longValue();
    }

    /** The host names the HTTP ports accept besides their own address: {@value #HTTP_ALLOWED_HOSTS} and {@code host}. */
    static AllowedHosts allowedHosts(Map<String, Object> conf, String host) {
        Object value = conf.get(HTTP_ALLOWED_HOSTS);
        List<String> names = new ArrayList<>();
        if (value instanceof String text) {
            names.addAll(Arrays.asList(text.split(",")));
        } else if (value instanceof List<?> list && list.stream().allMatch(String.class::isInstance)) {
            list.forEach(n -> names.add((String) n));
        } else if (value != null) {
            throw new IllegalArgumentException(HTTP_ALLOWED_HOSTS + " must be a list of host names, or names separated "
                + "by commas: " + value);
        }
        names.add(host);
        return new AllowedHosts(HTTP_ALLOWED_HOSTS, names);
    }

    /**
     * {@code conf} as the server shows it ({@code getNimbusConf}, the REST API's {@code cluster/configuration}, the
     * index page): the values of Storm's password keys (storm-client's, and every {@code *.password} such as
     * {@code ui.https.keystore.password}) masked as Storm masks them in its logs.
     */
    static Map<String, Object> shown(Map<String, Object> conf) {
        Map<String, Object> shown = new HashMap<>(ConfigUtils.maskPasswords(conf));
        shown.replaceAll((key, value) -> key.endsWith(".password") && value != null ? "*****" : value);
        return shown;
    }

    /** Whether reads need the token: {@value #HTTP_READ_AUTH}, or always on an address beyond loopback. */
    static boolean readAuth(Map<String, Object> conf, boolean loopback) {
        Object value = conf.get(HTTP_READ_AUTH);
        if (value != null && !(value instanceof Boolean)) {
            throw new IllegalArgumentException(HTTP_READ_AUTH + " must be true or false: " + value);
        }
        return !loopback || Boolean.TRUE.equals(value);
    }

    static int stopWaitSecs(Map<String, Object> conf) {
        Object value = conf.get(STOP_WAIT_SECS);
        if (value == null) {
            return DEFAULT_STOP_WAIT_SECS;
        }
        if (!(value instanceof Number number) || number.intValue() < 0) {
            throw new IllegalArgumentException(STOP_WAIT_SECS + " must be a number of seconds, 0 or more: " + value);
        }
        return number.intValue();
    }

    static int uiPort(Map<String, Object> conf) {
        return ObjectReader.getInt(conf.get(UI_PORT), 8080);
    }

    static boolean drpc(Map<String, Object> conf) {
        return ObjectReader.getBoolean(conf.get(DRPC), false);
    }

    static int drpcHttpPort(Map<String, Object> conf) {
        return ObjectReader.getInt(conf.get(DRPC_HTTP_PORT), 3774);
    }

    /** Whether a Thrift transport plugin authenticates callers (anything but Storm's simple plugin or ours). */
    static boolean authenticates(String plugin) {
        return plugin != null && !plugin.equals(SimpleTransportPlugin.class.getName())
            && !plugin.equals(BoundTransportPlugin.class.getName());
    }

    static int logViewerPort(Map<String, Object> conf) {
        return ObjectReader.getInt(conf.get(LOGVIEWER_PORT), 8000);
    }

    static int thriftPort(Map<String, Object> conf) {
        return ObjectReader.getInt(conf.get(Config.NIMBUS_THRIFT_PORT), 6627);
    }
}
