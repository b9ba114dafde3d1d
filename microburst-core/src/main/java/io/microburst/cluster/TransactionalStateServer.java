package io.microburst.cluster;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.shade.org.apache.zookeeper.KeeperException;
import org.apache.storm.shade.org.apache.zookeeper.ZooDefs;
import org.apache.storm.shade.org.apache.zookeeper.data.ACL;
import org.apache.storm.shade.org.apache.zookeeper.data.Id;
import org.apache.storm.shade.org.apache.zookeeper.server.PurgeTxnLog;
import org.apache.storm.shade.org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.storm.shade.org.apache.zookeeper.server.SessionTracker;
import org.apache.storm.shade.org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.storm.shade.org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.apache.storm.shade.org.apache.zookeeper.server.persistence.FileTxnSnapLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Trident (and Storm's transactional topologies) keep their batch coordination state through Storm's
 * {@code TransactionalState}, a ZooKeeper client. For those topologies only, the cluster runs this small ZooKeeper
 * server in-process, bound to loopback on an ephemeral port, with its data in a temporary directory that is deleted
 * when it stops: in the cluster's working folder ({@code microburst.work.dir}) when it has one, so that what a killed
 * process left behind is deleted with the rest of that folder at the next start (the server clears its
 * {@code DIR/workers/}), else in the JVM's temporary folder. Topologies without transactional state never start it.
 *
 * <p>Only this cluster's topologies may use it: the server has a random secret (a ZooKeeper digest identity) made
 * when it starts, and its root node's ACL grants everything to that identity and nothing to anyone else, before the
 * first client is served. {@link #topologyConf()} hands the identity to each topology as Storm's own topology
 * credentials ({@code storm.zookeeper.topology.auth.scheme}/{@code .payload}, with {@code storm.zookeeper.superACL}),
 * so storm-client's {@code TransactionalState} authenticates and creates its nodes readable only by it. Another
 * process on this machine can connect to the port but can neither read nor create a node.
 *
 * <p>ZooKeeper rolls its transaction log (a file preallocated to 64 MB) each time it takes a snapshot, about every
 * 100,000 writes, and never deletes the old ones itself: a server holding a Trident topology for days would fill its
 * disk. A thread of this server's own ({@code microburst-transactional-state-purge}) keeps the last
 * {@link #SNAPSHOTS_KEPT} snapshots and the logs they need every {@link #PURGE_PERIOD_MINUTES} minutes.
 *
 * <p>Its transaction log does not fsync each write ({@value #FORCE_SYNC} {@code =no}, set only while the server is
 * built): the data folder is temporary and dies with the process, so a write on disk survives nothing a write in
 * the page cache does not, and each synced write cost Trident's batches (and an upgrade's gap) milliseconds.
 *
 * <p>An upgrade holds its new version's reads here until the old version stopped ({@link StateReadHold}).
 *
 * <p>Threading: started and closed by the cluster facade under its lock; its address is read from any thread; the
 * purge runs on its own thread.
 */
public final class TransactionalStateServer implements AutoCloseable {
    /** The fewest snapshots ZooKeeper's purge keeps. */
    static final int SNAPSHOTS_KEPT = 3;
    static final long PURGE_PERIOD_MINUTES = 10;
    /** ZooKeeper's system property: "no" builds a transaction log that does not fsync. */
    static final String FORCE_SYNC = "zookeeper.forceSync";
    private static final Logger LOG = LoggerFactory.getLogger(TransactionalStateServer.class);
    /** Held while {@link #FORCE_SYNC} is changed, so two servers built at once restore the operator's value. */
    private static final Object PROPERTY_LOCK = new Object();
    private final Path dataDir;
    private final HoldingServer server;
    private final ServerCnxnFactory connections;
    private final String credentials;
    private final String digestId;
    private final ScheduledExecutorService purger;

    private TransactionalStateServer(Path dataDir, HoldingServer server, ServerCnxnFactory connections,
                                     String credentials, String digestId) {
        this.dataDir = dataDir;
        this.server = server;
        this.connections = connections;
        this.credentials = credentials;
        this.digestId = digestId;
        this.purger = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "microburst-transactional-state-purge");
            t.setDaemon(true);
            return t;
        });
        purger.scheduleWithFixedDelay(this::purge, PURGE_PERIOD_MINUTES, PURGE_PERIOD_MINUTES, TimeUnit.MINUTES);
    }

    /** Deletes the snapshots and transaction logs older than the last {@link #SNAPSHOTS_KEPT} snapshots need. */
    void purge() {
        try {
            PurgeTxnLog.purge(dataDir.toFile(), dataDir.toFile(), SNAPSHOTS_KEPT);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Could not purge old transaction logs of Trident's coordination state in {}: {}", dataDir,
                e.toString());
        }
    }

    /**
     * Whether a topology needs this server: Trident's master batch coordinator keeps its state in ZooKeeper through
     * Storm's TransactionalState.
     */
    public static boolean isNeededBy(StormTopology topology) {
        if (topology == null || topology.get_spouts() == null) {
            return false;
        }
        for (String id : topology.get_spouts().keySet()) {
            if (id.startsWith("$mastercoord")) {
                return true;
            }
        }
        return false;
    }

    /** Starts a server with its data in a new directory under {@code parent}, or the JVM's temporary folder if null. */
    public static TransactionalStateServer start(Path parent) {
        Path dir = null;
        try {
            String prefix = "microburst-transactional-state";
            dir = parent == null ? Files.createTempDirectory(prefix)
                : Files.createTempDirectory(Files.createDirectories(parent), prefix);
            File data = dir.toFile();
            HoldingServer server = withoutForcedSync(() -> new HoldingServer(data, data, 2000));
            byte[] secret = new byte[24];
            new SecureRandom().nextBytes(secret);
            String credentials = "microburst:" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
            String digestId = DigestAuthenticationProvider.generateDigest(credentials);
            ServerCnxnFactory connections = ServerCnxnFactory.createFactory(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
            // Listening, but serving no request until the data is loaded and the root is closed to all but us.
            connections.startup(server, false);
            server.startdata();
            server.getZKDatabase().getDataTree().setACL("/",
                List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest", digestId))), -1);
            server.startup();
            return new TransactionalStateServer(dir, server, connections, credentials, digestId);
        } catch (NoSuchAlgorithmException | KeeperException e) {
            deleteQuietly(dir);
            throw new IllegalStateException("Cannot secure the transactional state server", e);
        } catch (IOException e) {
            deleteQuietly(dir);
            throw new UncheckedIOException("Cannot start the transactional state server", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            deleteQuietly(dir);
            throw new IllegalStateException("Interrupted while starting the transactional state server", e);
        }
    }

    /** What builds a ZooKeeper server; may throw what its constructor throws. */
    private interface ServerBuild {
        HoldingServer build() throws IOException;
    }

    /**
     * Builds the server with {@link #FORCE_SYNC} set to "no" (ZooKeeper reads it when it builds its transaction
     * log), then restores the operator's value, or its absence.
     */
    private static HoldingServer withoutForcedSync(ServerBuild build) throws IOException {
        synchronized (PROPERTY_LOCK) {
            String operators = System.getProperty(FORCE_SYNC);
            System.setProperty(FORCE_SYNC, "no");
            try {
                return build.build();
            } finally {
                if (operators == null) {
                    System.clearProperty(FORCE_SYNC);
                } else {
                    System.setProperty(FORCE_SYNC, operators);
                }
            }
        }
    }

    /**
     * Holds the requests under {@code root} (Trident's transactional root) of the sessions created from now on (an
     * upgrade's new version's) until the hold is released or, after an abort, for good (see {@link StateReadHold}).
     */
    public StateReadHold holdNewSessions(String root) {
        return server.hold(root);
    }

    /** The server's snapshots and transaction log, for tests. */
    FileTxnSnapLog transactionLog() {
        return server.getTxnLogFactory();
    }

    public String host() {
        return InetAddress.getLoopbackAddress().getHostAddress();
    }

    public int port() {
        return connections.getLocalPort();
    }

    /**
     * What a topology's configuration needs to keep its transactional state here: the server's address, and this
     * server's identity as the topology's ZooKeeper credentials and super ACL.
     */
    public Map<String, Object> topologyConf() {
        return Map.of(
            Config.TRANSACTIONAL_ZOOKEEPER_SERVERS, List.of(host()),
            Config.TRANSACTIONAL_ZOOKEEPER_PORT, port(),
            Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_SCHEME, "digest",
            Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_PAYLOAD, credentials,
            Config.STORM_ZOOKEEPER_SUPERACL, "digest:" + digestId);
    }

    /**
     * Stops the server and waits for its session tracker thread to notice (it sleeps up to a tick between checks):
     * a thread of the server left running would outlive its classes when the topology's class loader closes.
     */
    @Override
    public void close() {
        purger.shutdownNow();
        try {
            purger.awaitTermination(10, TimeUnit.SECONDS); // a purge under way finishes before the folder goes
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        SessionTracker tracker = server.getSessionTracker();
        connections.shutdown();
        server.shutdown();
        if (tracker instanceof Thread thread) {
            try {
                thread.join(2L * server.getTickTime());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        deleteQuietly(dataDir);
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }
}
