package io.microburst.bench.runtime;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.storm.shade.org.apache.zookeeper.server.NIOServerCnxnFactory;
import org.apache.storm.shade.org.apache.zookeeper.server.ZooKeeperServer;

/**
 * An in-process ZooKeeper for Storm's LocalCluster, bound to the loopback address on a free port.
 *
 * <p>LocalCluster's own in-process ZooKeeper listens on every interface; the bench gives it this one instead, so nothing
 * the bench starts is reachable from outside the machine. Everything else about the cluster stays at Storm's defaults.
 */
public final class LoopbackZookeeper implements AutoCloseable {
    private static final int TICK_MILLIS = 2000;
    private final Path dataDir;
    private final NIOServerCnxnFactory factory;

    public LoopbackZookeeper() throws IOException, InterruptedException {
        dataDir = Files.createTempDirectory("microburst-bench-zk");
        NIOServerCnxnFactory started = new NIOServerCnxnFactory();
        try {
            started.configure(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            started.startup(new ZooKeeperServer(dataDir.toFile(), dataDir.toFile(), TICK_MILLIS));
        } catch (IOException | InterruptedException | RuntimeException e) {
            started.shutdown();
            TempDirs.deleteTree(dataDir);
            throw e;
        }
        factory = started;
    }

    /** Host to connect to. */
    public String host() {
        return InetAddress.getLoopbackAddress().getHostAddress();
    }

    /** Port it listens on. */
    public long port() {
        return factory.getLocalPort();
    }

    @Override
    public void close() {
        factory.shutdown();
        TempDirs.deleteTree(dataDir); // a temporary folder left behind is harmless
    }
}
