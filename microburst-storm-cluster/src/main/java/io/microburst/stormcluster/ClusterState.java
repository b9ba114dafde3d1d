package io.microburst.stormcluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * What a cluster's processes leave behind for any JVM to find them: the Storm home, the ports picked at start and each
 * daemon's process id, kept in {@code cluster.properties} in the data directory and written on every change.
 *
 * <p>Not thread-safe: used by the one caller that starts or stops the cluster.
 */
final class ClusterState {
    private static final String FILE = "cluster.properties";

    private final Path dataDir;
    private final Properties properties;

    private ClusterState(Path dataDir, Properties properties) {
        this.dataDir = dataDir;
        this.properties = properties;
    }

    /** A new cluster's state (not yet saved): {@code stormHome}, and ports on the loopback interface free now. */
    static ClusterState fresh(Path dataDir, Path stormHome) throws IOException {
        Properties properties = new Properties();
        properties.setProperty("home", stormHome.toString());
        int[] ports = freePorts(5);
        properties.setProperty("zookeeper.port", Integer.toString(ports[0]));
        properties.setProperty("nimbus.port", Integer.toString(ports[1]));
        properties.setProperty("supervisor.port", Integer.toString(ports[2]));
        properties.setProperty("slot.ports", ports[3] + "," + ports[4]);
        return new ClusterState(dataDir, properties);
    }

    /** The state {@code dataDir} holds, if a cluster was ever started there. */
    static Optional<ClusterState> load(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        }
        return Optional.of(new ClusterState(dataDir, properties));
    }

    Path stormHome() {
        return Path.of(properties.getProperty("home"));
    }

    String zookeeperPort() {
        return properties.getProperty("zookeeper.port");
    }

    String nimbusPort() {
        return properties.getProperty("nimbus.port");
    }

    String supervisorPort() {
        return properties.getProperty("supervisor.port");
    }

    /** The slot ports, comma-separated. */
    String slotPorts() {
        return properties.getProperty("slot.ports");
    }

    List<Integer> slotPortList() {
        List<Integer> ports = new ArrayList<>();
        for (String port : slotPorts().split(",")) {
            ports.add(Integer.parseInt(port));
        }
        return ports;
    }

    /** The process id {@code daemon} was started with, or null if it was never started. */
    String pid(String daemon) {
        return properties.getProperty(daemon + ".pid");
    }

    /** Records that {@code daemon} runs as {@code pid}, and saves. */
    void setPid(String daemon, long pid) {
        properties.setProperty(daemon + ".pid", Long.toString(pid));
        save();
    }

    void save() {
        try (OutputStream out = Files.newOutputStream(dataDir.resolve(FILE))) {
            properties.store(out, "Storm cluster state: process ids and ports");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int[] freePorts(int n) throws IOException {
        ServerSocket[] sockets = new ServerSocket[n];
        int[] ports = new int[n];
        try {
            for (int i = 0; i < n; i++) {
                sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ports[i] = sockets[i].getLocalPort();
            }
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
        return ports;
    }
}
