package io.microburst.server;

import io.microburst.MicroburstCluster;
import io.microburst.MicroburstConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import io.microburst.server.web.WebServer;
import org.apache.storm.Config;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.security.auth.ThriftConnectionType;
import org.apache.storm.security.auth.ThriftServer;
import org.apache.storm.utils.ObjectReader;
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
 * {@code logviewer.port} each topology's worker log ({@link WorkerLogs}, {@link LogViewer}), and with
 * {@value ServerConfig#DRPC} on, DRPC as Storm's DRPC daemon does ({@link DrpcService}, {@link DrpcHttp}).
 *
 * <p>Listens on 127.0.0.1 unless {@value ServerConfig#BIND} says otherwise, and refuses to listen on any other address
 * unless an authenticating Thrift transport (for example Storm's SASL digest plugin) is configured. Thread-safe;
 * {@link #close()} stops serving and stops the topologies, which stay stored.
 */
public final class MicroburstServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MicroburstServer.class);

    private final Map<String, Object> conf;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final ScheduledExecutorService scheduler;
    private final MicroburstCluster cluster;
    private final ServerNimbus nimbus;
    private final ThriftServer thrift;
    private final Thread thriftThread;
    private final String host;
    private final Path dataDir;
    private final WebServer web;
    private final DrpcService drpc;
    private final DrpcHttp drpcHttp;
    private final WorkerLogs workerLogs;
    private final LogViewer logViewer;

    private MicroburstServer(Map<String, Object> conf) throws IOException {
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
        this.lockChannel = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        this.lock = lockChannel.tryLock();
        if (lock == null) {
            lockChannel.close();
            throw new IllegalStateException("Another microburst server is using " + dir);
        }
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "microburst-server-scheduler");
            t.setDaemon(true);
            return t;
        });
        Object localHostname = conf.get(Config.STORM_LOCAL_HOSTNAME);
        this.host = localHostname instanceof String name && !name.isBlank() ? name
            : address.isAnyLocalAddress() ? InetAddress.getLocalHost().getCanonicalHostName() : bind;
        if (ServerConfig.drpc(conf)) {
            DrpcService service = null;
            try {
                service = startDrpc(conf, address, bind, host);
                int httpPort = ServerConfig.drpcHttpPort(conf);
                this.drpcHttp = httpPort < 0 ? null : new DrpcHttp(service, httpPort,
                    ObjectReader.getInt(conf.get(Config.DRPC_WORKER_THREADS), 64));
                this.drpc = service;
            } catch (Exception e) {
                if (service != null) {
                    service.close();
                }
                scheduler.shutdownNow();
                lock.release();
                lockChannel.close();
                if (e instanceof IllegalArgumentException refused) {
                    throw refused;
                }
                throw new IOException("cannot serve DRPC on " + bind + ": " + e, e);
            }
            // as a Storm cluster's configuration names its DRPC servers: topologies fetch their requests here
            conf.put(Config.DRPC_SERVERS, List.of(host));
            conf.put(Config.DRPC_PORT, drpc.port());
            conf.put(Config.DRPC_INVOCATIONS_PORT, drpc.invocationsPort());
            conf.put(ServerConfig.DRPC_HTTP_PORT, drpcHttp == null ? -1 : drpcHttp.port());
        } else {
            this.drpc = null;
            this.drpcHttp = null;
        }
        Map<String, Object> clusterConf = new HashMap<>(conf);
        clusterConf.putIfAbsent(MicroburstConfig.BLOBSTORE_DIR, dir.resolve("blobs").toString());
        this.workerLogs = new WorkerLogs(dir.resolve("logs").resolve("workers-artifacts"), workerLogMaxBytes);
        this.cluster = new MicroburstCluster(clusterConf);
        this.nimbus = new ServerNimbus(cluster, conf, new JarUploads(dir.resolve("uploads"),
            ServerConfig.uploadMaxBytes(conf)), new TopologyStore(dir.resolve("topologies")), scheduler, host,
            workerLogs);
        nimbus.restore();
        this.thrift = new ThriftServer(conf, new Nimbus.Processor<>(ThriftErrors.wrap(nimbus)), ThriftConnectionType.NIMBUS);
        nimbus.advertisedPort(thrift.getPort());
        this.thriftThread = new Thread(thrift::serve, "microburst-thrift");
        thriftThread.start();
        try {
            this.web = new WebServer(nimbus, cluster, bind, ServerConfig.uiPort(conf), UiToken.create(dir));
        } catch (Exception e) {
            thrift.stop();
            cluster.close();
            closeDrpc();
            workerLogs.close();
            throw new IOException("cannot start the web server on " + bind + ":" + ServerConfig.uiPort(conf) + ": " + e, e);
        }
        this.logViewer = startLogViewer(workerLogs, bind, ServerConfig.logViewerPort(conf));
    }

    /** The logviewer, or null (logged) when its port cannot be had: the worker logs are still written. */
    private static LogViewer startLogViewer(WorkerLogs logs, String bind, int port) {
        try {
            return new LogViewer(logs, bind, port);
        } catch (Exception e) {
            LOG.warn("No logviewer: cannot listen on {}:{} ({}); worker logs are still written to {}; set {} to a free "
                + "port to serve them", bind, port, e.toString(), logs.root(), ServerConfig.LOGVIEWER_PORT);
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
        server.awaitServing();
        LOG.info("Nimbus Thrift service listening on {}:{}", server.host(), server.thriftPort());
        return server;
    }

    /** Whether the configured transport authenticates callers (anything but Storm's simple plugin or ours). */
    static boolean authenticated(Map<String, Object> conf) {
        return ServerConfig.authenticates(ThriftConnectionType.NIMBUS.getTransportPlugin(conf));
    }

    /** The DRPC service; on an address other than a loopback one, only with authenticating DRPC transports. */
    private static DrpcService startDrpc(Map<String, Object> conf, InetAddress address, String bind, String host)
        throws InterruptedException {
        if (!address.isLoopbackAddress()) {
            for (ThriftConnectionType type : List.of(ThriftConnectionType.DRPC, ThriftConnectionType.DRPC_INVOCATIONS)) {
                if (!ServerConfig.authenticates(type.getTransportPlugin(conf))) {
                    throw new IllegalArgumentException("Refusing to serve DRPC on " + bind + " without authentication: "
                        + "configure an authenticating transport in " + Config.DRPC_THRIFT_TRANSPORT_PLUGIN + " and "
                        + Config.DRPC_INVOCATIONS_THRIFT_TRANSPORT_PLUGIN + " (or " + Config.STORM_THRIFT_TRANSPORT_PLUGIN
                        + "), or keep " + ServerConfig.BIND + " on a loopback address");
                }
            }
        }
        return new DrpcService(conf, host);
    }

    private void closeDrpc() {
        if (drpc != null) {
            drpc.close();
        }
        if (drpcHttp != null) {
            drpcHttp.close();
        }
    }

    private void awaitServing() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!thrift.isServing()) {
            if (System.nanoTime() - deadline > 0 || !thriftThread.isAlive()) {
                throw new IllegalStateException("the Nimbus Thrift service did not start");
            }
            Thread.sleep(10);
        }
    }

    /**
     * The host clients should use, as the server advertises it ({@code getLeader}): {@code storm.local.hostname} when
     * set, as Storm's Nimbus does; else the bind address, or this machine's name when bound to every interface.
     */
    public String host() {
        return host;
    }

    /** The port of the web pages, the Storm UI REST API and the metrics. */
    public int uiPort() {
        return web.port();
    }

    /** The logviewer's port (worker logs), or -1 when it could not listen. */
    public int logViewerPort() {
        return logViewer == null ? -1 : logViewer.port();
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
        return thrift.getPort();
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
        return drpcHttp == null ? -1 : drpcHttp.port();
    }

    /**
     * Stops serving and stops every topology; stored topologies stay stored and come back at the next start. DRPC
     * requests still waiting fail with {@code SERVER_SHUTDOWN}.
     */
    @Override
    public void close() {
        if (logViewer != null) {
            logViewer.close();
        }
        web.close();
        thrift.stop();
        try {
            thriftThread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        cluster.close();
        closeDrpc();
        workerLogs.close();
        scheduler.shutdownNow();
        try {
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            LOG.warn("Cannot release the data folder lock: {}", e.toString());
        }
    }
}
