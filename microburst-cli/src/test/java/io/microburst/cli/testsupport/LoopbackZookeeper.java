package io.microburst.cli.testsupport;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.storm.shade.org.apache.zookeeper.server.NIOServerCnxnFactory;
import org.apache.storm.shade.org.apache.zookeeper.server.ZooKeeperServer;

/**
 * An in-process ZooKeeper bound to the loopback address on a free port, for Apache Storm's LocalCluster (whose own
 * in-process ZooKeeper listens on every interface).
 */
public final class LoopbackZookeeper implements AutoCloseable {
    private final Path dataDir;
    private final NIOServerCnxnFactory factory;

    public LoopbackZookeeper() throws Exception {
        dataDir = Files.createTempDirectory("microburst-zk");
        File dir = dataDir.toFile();
        factory = new NIOServerCnxnFactory();
        factory.configure(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        factory.startup(new ZooKeeperServer(dir, dir, 2000));
    }

    public String host() {
        return InetAddress.getLoopbackAddress().getHostAddress();
    }

    public long port() {
        return factory.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        factory.shutdown();
        try (Stream<Path> paths = Files.walk(dataDir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
