package org.apache.storm.testing;

import java.io.File;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.storm.shade.org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.storm.shade.org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A ZooKeeper server in this process, on the loopback address and a free port, with its data in a temporary folder
 * deleted at close: for tests that talk to ZooKeeper themselves (Microburst's clusters need none).
 *
 * <p>Threading: make and close on one thread; ZooKeeper serves on threads of its own, all stopped by {@link #close()}.
 */
public class InProcessZookeeper implements AutoCloseable {
    private final Path dataDir;
    private final ZooKeeperServer server;
    private final ServerCnxnFactory connections;

    /** Starts the server; fails if no port or temporary folder can be had. */
    public InProcessZookeeper() throws Exception {
        dataDir = Files.createTempDirectory("microburst-zookeeper");
        File data = dataDir.toFile();
        server = new ZooKeeperServer(data, data, 2000);
        connections = ServerCnxnFactory.createFactory(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
        try {
            connections.startup(server);
        } catch (Exception | Error e) {
            connections.shutdown();
            deleteQuietly(dataDir);
            throw e;
        }
    }

    /** The port the server listens on, at the loopback address (what {@code localhost} names). */
    public long getPort() {
        return connections.getLocalPort();
    }

    @Override
    public void close() throws Exception {
        connections.shutdown();
        server.shutdown();
        deleteQuietly(dataDir);
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException ignored) {
            // a temporary folder left behind is harmless
        }
    }
}
