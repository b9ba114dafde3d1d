package io.microburst.cluster;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.storm.shade.org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.storm.shade.org.apache.zookeeper.server.ZooKeeperServer;

/**
 * Trident (and Storm's transactional topologies) keep their batch coordination state through Storm's
 * {@code TransactionalState}, a ZooKeeper client. For those topologies only, the cluster runs this small ZooKeeper
 * server in-process, bound to loopback on an ephemeral port, with its data in a temporary directory that is deleted
 * when it stops. Topologies without transactional state never start it.
 */
public final class TransactionalStateServer implements AutoCloseable {
    private final Path dataDir;
    private final ZooKeeperServer server;
    private final ServerCnxnFactory connections;

    private TransactionalStateServer(Path dataDir, ZooKeeperServer server, ServerCnxnFactory connections) {
        this.dataDir = dataDir;
        this.server = server;
        this.connections = connections;
    }

    public static TransactionalStateServer start() {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("microburst-transactional-state");
            File data = dir.toFile();
            ZooKeeperServer server = new ZooKeeperServer(data, data, 2000);
            ServerCnxnFactory connections = ServerCnxnFactory.createFactory(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
            connections.startup(server);
            return new TransactionalStateServer(dir, server, connections);
        } catch (IOException e) {
            deleteQuietly(dir);
            throw new UncheckedIOException("Cannot start the transactional state server", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            deleteQuietly(dir);
            throw new IllegalStateException("Interrupted while starting the transactional state server", e);
        }
    }

    public String host() {
        return InetAddress.getLoopbackAddress().getHostAddress();
    }

    public int port() {
        return connections.getLocalPort();
    }

    @Override
    public void close() {
        connections.shutdown();
        server.shutdown();
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
