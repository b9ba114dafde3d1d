package io.microburst.server;

import io.microburst.MicroburstCluster;
import io.microburst.MicroburstConfig;
import io.microburst.server.logviewer.LogViewer;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;
import io.microburst.server.web.AllowedHosts;
import io.microburst.server.web.ReadAccess;
import io.microburst.server.web.TlsSettings;
import io.microburst.server.web.WebServer;
import org.apache.storm.Config;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.security.auth.ThriftConnectionType;
import org.apache.storm.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code microburst server}: a long-running process that serves Storm's Nimbus Thrift service, backed by one
 * {@link MicroburstCluster}, so that {@code StormSubmitter}, {@code NimbusClient} and the {@code storm} command's
 * classes work against it unchanged. Topologies are kept in the data folder and come back, in their last status, when
 * the server starts again.
 *
 * <p>Also serves, on {@code ui.port}, the Storm UI REST API, Prometheus metrics and pages ({@link WebServer}), on
 * {@code logviewer.port} (and/or {@code logviewer.https.port}) each topology's worker log ({@link WorkerLogs},
 * {@link LogViewer}), and with
 * {@value ServerConfig#DRPC} on, DRPC as Storm's DRPC daemon does ({@link DrpcDaemon}).
 *
 * <p>Listens on 127.0.0.1 unless {@value ServerConfig#BIND} says otherwise, and refuses to listen on any other address
 * unless an authenticating Thrift transport (for example Storm's SASL digest plugin) is configured. Its parts are a
 * {@link ServiceStack}: started in order, stopped in reverse. Thread-safe; {@link #close()}, from any thread, stops
 * serving and stops the topologies, which stay stored.
 */
public final class MicroburstServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MicroburstServer.class);

    private final Map<String, Object> conf;
    private final String host;
    private final Path dataDir;
    /** Everything the server started, closed in reverse order by {@link #close()}; see the constructor. */
    private final ServiceStack services = new ServiceStack("microburst server");
    private final WorkerLogs workerLogs;
    private final DrpcDaemon drpc;
    private final MicroburstCluster cluster;
    private final ServerNimbus nimbus;
    private final NimbusThrift thrift;
    private final WebServer web;
    private final LogViewer logViewer;
    private final GracefulDrain drain;

    /**
     * Starts the services in order; {@link #close()} stops them in reverse order, and a failed start stops those
     * already started. So requests stop being accepted (logviewer, web, Thrift) before the topologies stop (the
     * cluster), DRPC stops after the topologies that use it, and the data folder is unlocked last.
     */
    private MicroburstServer(Map<String, Object> conf) throws IOException, InterruptedException {
        this.conf = conf;
        String bind = ServerConfig.bind(conf);
        long workerLogMaxBytes = ServerConfig.workerLogMaxBytes(conf);
        InetAddress address = InetAddress.getByName(bind);
        if (!authenticated(conf)) {
            if (!address.isLoopbackAddress()) {
                throw new IllegalArgumentException("Refusing to listen on " + bind + " without authentication: "
                    + "configure an authenticating Thrift transport (nimbus.thrift.transport, for example "
                    + "org.apache.storm.security.auth.digest.DigestSaslTransportPlugin with a JAAS file in "
                    + "java.security.auth.login.config), or keep " + ServerConfig.BIND + " on a loopback address");
            }
            conf.put(Config.NIMBUS_THRIFT_TRANSPORT_PLUGIN, BoundTransportPlugin.class.getName());
        }
        Path dir = Files.createDirectories(ServerConfig.dir(conf).toAbsolutePath());
        this.dataDir = dir;
        Object localHostname = conf.get(Config.STORM_LOCAL_HOSTNAME);
        this.host = localHostname instanceof String name && !name.isBlank() ? name
            : address.isAnyLocalAddress() ? InetAddress.getLocalHost().getCanonicalHostName() : bind;
        AllowedHosts allowedHosts = ServerConfig.allowedHosts(conf, host);
        // read before anything starts, so that a wrong keystore path or password stops the start in one line
        TlsSettings tls = TlsSettings.from(conf);
        TlsSettings logTls = TlsSettings.from(conf, TlsSettings.LOGVIEWER);
        boolean readAuth = ServerConfig.readAuth(conf, address.isLoopbackAddress());
        if (!address.isLoopbackAddress()) {
            warnPlainHttp(bind, tls == null ? TlsSettings.UI : null, logTls == null ? TlsSettings.LOGVIEWER : null);
        }

        services.start("data folder lock", () -> DataDirLock.lock(dir));
        ScheduledExecutorService scheduler = services.start("scheduler", MicroburstServer::newScheduler,
            ScheduledExecutorService::shutdownNow);
        this.workerLogs = services.start("worker logs",
            () -> new WorkerLogs(dir.resolve("logs").resolve("workers-artifacts"), workerLogMaxBytes));
        this.drpc = !ServerConfig.drpc(conf) ? null
            : services.start("DRPC", () -> DrpcDaemon.start(conf, address, bind, host, allowedHosts));
        if (drpc != null) {
            drpc.advertise(conf, host);
        }
        Map<String, Object> clusterConf = new HashMap<>(conf);
        clusterConf.putIfAbsent(MicroburstConfig.BLOBSTORE_DIR, dir.resolve("blobs").toString());
        // topologies' working directories inside the data folder, those left by a killed server deleted first
        Path workers = dir.resolve("workers");
        services.run("topology working directories", () -> deleteContents(workers));
        clusterConf.putIfAbsent(MicroburstConfig.WORK_DIR, workers.toString());
        this.cluster = services.start("cluster", () -> new MicroburstCluster(clusterConf));
        this.nimbus = services.run("stored topologies", () -> restoredNimbus(dir, scheduler));
        // Closed after the services that take requests and before the cluster: a graceful stop drains here.
        this.drain = services.start("graceful stop", () -> new GracefulDrain(cluster, ServerConfig.stopWaitSecs(conf)),
            GracefulDrain::drain);
        this.thrift = services.start("Nimbus Thrift", () -> new NimbusThrift(conf, nimbus));
        String token = services.run("web token", () -> UiToken.create(dir));
        String tokenFile = dir.resolve(UiToken.FILE).toString();
        // As Storm's UI: with HTTPS on, plain HTTP only when ui.disable.http.binding (true in Storm's defaults) is false
        int httpPort = tls != null && TlsSettings.plainHttpOff(conf) ? -1 : ServerConfig.uiPort(conf);
        ReadAccess access = new ReadAccess(token, tokenFile, readAuth);
        this.web = services.start("web", () -> startWeb(bind, httpPort, dir, tls, allowedHosts, access));
        // getNimbusConf answers the port in use (ui.port 0 picks a free one), as it does for DRPC's: clients such as
        // 'microburst submit' print the topology's page from it. The key is in Storm's defaults, so this replaces a value.
        if (web.port() >= 0) {
            conf.put(ServerConfig.UI_PORT, web.port());
        }
        int logHttpPort = logTls != null && TlsSettings.plainHttpOff(conf, TlsSettings.LOGVIEWER) ? -1
            : ServerConfig.logViewerPort(conf);
        this.logViewer = services.start("logviewer", () -> startLogViewer(workerLogs, bind, logHttpPort, logTls,
            allowedHosts, access));
        // the UI's log links name the port in use (logviewer.port 0 picks a free one), https when the logviewer has it
        if (logViewer != null && logViewer.port() >= 0) {
            conf.put(ServerConfig.LOGVIEWER_PORT, logViewer.port());
        }
        if (logViewer != null && logViewer.httpsPort() >= 0) {
            conf.put(TlsSettings.key(TlsSettings.LOGVIEWER, "port"), logViewer.httpsPort());
        }
    }

    /** Beyond loopback, says which faces ({@code ui}, {@code logviewer}; null: on HTTPS) send the token in clear. */
    private static void warnPlainHttp(String bind, String web, String logviewer) {
        if (web == null && logviewer == null) {
            return;
        }
        String faces = web != null && logviewer != null ? "web and logviewer ports listen"
            : web != null ? "web port listens" : "logviewer port listens";
        String keys = web != null && logviewer != null ? TlsSettings.PORT + " and " + TlsSettings.key(logviewer, "port")
            : TlsSettings.key(web != null ? web : logviewer, "port");
        LOG.warn("The {} on {} over plain HTTP: the token that reads and actions need crosses the network in clear; "
            + "set {} (with the keystore keys beside it) to serve HTTPS", faces, bind, keys);
    }

    /** Deletes what is inside {@code folder} (nothing runs there yet), keeping the folder. */
    private static Void deleteContents(Path folder) throws IOException {
        if (Files.isDirectory(folder)) {
            try (Stream<Path> paths = Files.walk(folder)) {
                for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                    if (!p.equals(folder)) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
        return null;
    }

    private static ScheduledExecutorService newScheduler() {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "microburst-server-scheduler");
            t.setDaemon(true);
            return t;
        });
    }

    /** The Nimbus service, with every stored topology started again in its stored status. */
    private ServerNimbus restoredNimbus(Path dir, ScheduledExecutorService scheduler) throws IOException {
        StormServiceLoaders.initialize(MicroburstServer.class.getClassLoader());
        ServerNimbus restored = new ServerNimbus(cluster, conf, new JarUploads(dir.resolve("uploads"),
            ServerConfig.uploadLimits(conf)), new TopologyStore(dir.resolve("topologies")), scheduler, host,
            workerLogs);
        restored.restore();
        return restored;
    }

    private WebServer startWeb(String bind, int port, Path dir, TlsSettings tls, AllowedHosts allowedHosts,
                               ReadAccess access)
        throws IOException {
        try {
            String thriftHost = InetAddress.getByName(bind).isAnyLocalAddress() ? "127.0.0.1" : bind;
            ChildJvmSubmit mains = new ChildJvmSubmit(dir.resolve("uploads"), ServerConfig.uploadLimits(conf),
                thriftHost, thrift.port(), conf, ServerConfig.upgradeMainTimeoutSecs(conf));
            return new WebServer(nimbus, cluster, bind, port, tls, allowedHosts, access,
                workerLogs.root(), nimbus.debugSampling(), ServerConfig.httpMaxBodyBytes(conf), mains);
        } catch (Exception e) {
            throw new IOException("cannot start the web server on " + bind + ":" + (port >= 0 ? port : tls.port())
                + (port >= 0 && tls != null ? " and " + tls.port() : "") + ": " + e, e);
        }
    }

    /** The logviewer, or null (logged) when its port cannot be had: the worker logs are still written. */
    private static LogViewer startLogViewer(WorkerLogs logs, String bind, int port, TlsSettings tls,
                                            AllowedHosts allowedHosts, ReadAccess access) {
        try {
            return new LogViewer(logs, bind, port, tls, allowedHosts, access);
        } catch (Exception e) {
            String ports = (port >= 0 ? String.valueOf(port) : "") + (port >= 0 && tls != null ? " and " : "")
                + (tls != null ? tls.port() : "");
            LOG.warn("No logviewer: cannot listen on {}:{} ({}); worker logs are still written to {}; set {} to a free "
                + "port to serve them", bind, ports, e.toString(), logs.root(), tls == null
                ? ServerConfig.LOGVIEWER_PORT : ServerConfig.LOGVIEWER_PORT + " or " + TlsSettings.key(
                TlsSettings.LOGVIEWER, "port"));
            return null;
        }
    }

    /**
     * Starts a server with Storm's configuration (defaults.yaml, storm.yaml) overridden by {@code overrides}; returns
     * once the Nimbus service accepts connections.
     *
     * @throws IllegalArgumentException if the configuration asks for something refused (an unauthenticated non-loopback
     *     address)
     */
    public static MicroburstServer start(Map<String, Object> overrides) throws IOException, InterruptedException {
        Map<String, Object> conf = new HashMap<>(Utils.readStormConfig());
        conf.putAll(overrides);
        MicroburstServer server = new MicroburstServer(conf);
        LOG.info("Nimbus Thrift service listening on {}:{}", server.host(), server.thriftPort());
        return server;
    }

    /** Whether the configured transport authenticates callers (anything but Storm's simple plugin or ours). */
    static boolean authenticated(Map<String, Object> conf) {
        return ServerConfig.authenticates(ThriftConnectionType.NIMBUS.getTransportPlugin(conf));
    }

    /**
     * The host clients should use, as the server advertises it ({@code getLeader}): {@code storm.local.hostname} when
     * set, as Storm's Nimbus does; else the bind address, or this machine's name when bound to every interface.
     */
    public String host() {
        return host;
    }

    /** The plain HTTP port of the web pages, the Storm UI REST API and the metrics; -1 when they are on HTTPS only. */
    public int uiPort() {
        return web.port();
    }

    /** The HTTPS port of the web pages, REST API and metrics ({@code ui.https.port}), or -1 without HTTPS. */
    public int uiHttpsPort() {
        return web.httpsPort();
    }

    /** Where a person finds the pages: the HTTPS address when there is one, else the plain one. */
    public String pagesUrl() {
        return url(web.port(), web.httpsPort());
    }

    /** Where the logviewer serves worker logs, as {@link #pagesUrl()}; null when it could not listen. */
    public String logViewerUrl() {
        return logViewer == null ? null : url(logViewer.port(), logViewer.httpsPort());
    }

    private String url(int port, int httpsPort) {
        String name = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return httpsPort >= 0 ? "https://" + name + ":" + httpsPort + "/" : "http://" + name + ":" + port + "/";
    }

    /** The logviewer's plain HTTP port (worker logs), or -1 when it could not listen or serves HTTPS only. */
    public int logViewerPort() {
        return logViewer == null ? -1 : logViewer.port();
    }

    /** The logviewer's HTTPS port ({@code logviewer.https.port}), or -1 without HTTPS or when it could not listen. */
    public int logViewerHttpsPort() {
        return logViewer == null ? -1 : logViewer.httpsPort();
    }

    /** The folder holding each topology's {@code ID/PORT/worker.log}, as a Storm supervisor's workers-artifacts. */
    public Path workerLogsDir() {
        return workerLogs.root();
    }

    /** The folder where topologies are stored. */
    public Path dataDir() {
        return dataDir;
    }

    public int thriftPort() {
        return thrift.port();
    }

    /** The cluster the topologies run on. */
    public MicroburstCluster cluster() {
        return cluster;
    }

    /** The Nimbus service itself, as the Thrift port serves it. */
    public Nimbus.Iface nimbus() {
        return nimbus;
    }

    /** The server's configuration: Storm's, with the server's overrides. */
    public Map<String, Object> conf() {
        return conf;
    }

    /** The port DRPC clients call functions on ({@code drpc.port}), or -1 when the server does not serve DRPC. */
    public int drpcPort() {
        return drpc == null ? -1 : drpc.port();
    }

    /** The port topologies fetch DRPC requests from ({@code drpc.invocations.port}), or -1 without DRPC. */
    public int drpcInvocationsPort() {
        return drpc == null ? -1 : drpc.invocationsPort();
    }

    /** The port of DRPC over HTTP ({@code drpc.http.port}, on 127.0.0.1), or -1 when not served. */
    public int drpcHttpPort() {
        return drpc == null ? -1 : drpc.httpPort();
    }

    /** The services running, in the order they started (and the reverse of the order they stop in). */
    List<String> services() {
        return services.names();
    }

    /**
     * Stops serving and stops every topology at once; stored topologies stay stored and come back at the next start.
     * DRPC requests still waiting fail with {@code SERVER_SHUTDOWN}.
     */
    @Override
    public void close() {
        services.close();
    }

    /**
     * As {@link #close()}, gracefully (SIGTERM): once requests are no longer taken, every spout is deactivated and the
     * tuples in flight are processed, for at most {@value ServerConfig#STOP_WAIT_SECS} seconds ({@link GracefulDrain}),
     * before the topologies stop. Their stored status is unchanged.
     *
     * @return false when tuples were still in flight at the end of the wait (they were stopped anyway)
     */
    public boolean closeGracefully() {
        drain.request();
        services.close();
        return drain.drained();
    }

    /** Seconds {@link #closeGracefully()} waits at most for the tuples in flight. */
    public int stopWaitSecs() {
        return ServerConfig.stopWaitSecs(conf);
    }
}
