package io.microburst.stormcluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.storm.utils.Utils;

/**
 * A real single-machine Apache Storm cluster: a ZooKeeper server, Nimbus and one Supervisor, each its own JVM, started
 * from a Storm home assembled from published artifacts ({@code lib/}, {@code lib-worker/}, {@code log4j2/}), with every
 * file it writes (configuration, ZooKeeper data, Storm's local state, logs, worker artifacts) under one data directory.
 * ZooKeeper, Nimbus and the workers advertise 127.0.0.1; ports are picked free at start.
 *
 * <p>The processes outlive this object (a command-line {@code up} returns while the cluster runs); {@link #stop()}, on
 * this object or, from any JVM, on the one {@link #attach(Path)} returns, ends them and the worker JVMs the Supervisor
 * launched, and checks that none is left.
 * The state (process ids, ports) is kept in {@code cluster.properties} in the data directory.
 *
 * <p>This class orders the steps; each has its own class: {@link ClusterState} (the state file),
 * {@link ClusterConfigFiles} (storm.yaml and zoo.cfg), {@link DaemonLauncher} (a daemon's JVM), {@link Readiness}
 * (whether a daemon serves) and {@link ClusterProcesses} (finding and ending the cluster's processes).
 *
 * <p>Not thread-safe: one caller starts and stops a cluster.
 */
public final class StormCluster implements AutoCloseable {
    /** Worker slots the Supervisor offers. */
    public static final int SLOTS = 2;

    private final Path dataDir;
    private final ClusterState state;
    private final ClusterProcesses processes;

    private StormCluster(Path dataDir, ClusterState state) {
        this.dataDir = dataDir;
        this.state = state;
        this.processes = new ClusterProcesses(dataDir, state);
    }

    /**
     * Starts ZooKeeper, Nimbus and a Supervisor with {@link #SLOTS} slots from {@code stormHome}, keeping their files in
     * {@code dataDir} (created if needed; it must not hold a running cluster), and returns once Nimbus sees the
     * Supervisor's slots, that is once the cluster accepts topologies. On any failure or timeout every process started
     * so far is stopped and the exception names the daemon and its log file.
     */
    public static StormCluster start(Path stormHome, Path dataDir, Duration timeout) throws IOException, InterruptedException {
        stormHome = stormHome.toAbsolutePath().normalize();
        dataDir = dataDir.toAbsolutePath().normalize();
        requireHome(stormHome);
        if (attach(dataDir).filter(c -> c.processes.anyAlive()).isPresent()) {
            throw new IllegalStateException("a Storm cluster already runs with its data in " + dataDir
                + "; stop it first");
        }
        for (String dir : new String[] {"conf", "logs", "storm-local", "zookeeper"}) {
            Files.createDirectories(dataDir.resolve(dir));
        }
        ClusterState state = ClusterState.fresh(dataDir, stormHome);
        StormCluster cluster = new StormCluster(dataDir, state);
        ClusterConfigFiles.write(dataDir, state);
        state.save();
        DaemonLauncher launcher = new DaemonLauncher(dataDir, state, cluster.processes);
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            launcher.launch("zookeeper", "org.apache.zookeeper.server.quorum.QuorumPeerMain",
                List.of("-Xmx128m", "-Dzookeeper.admin.enableServer=false"),
                List.of(ClusterConfigFiles.zooCfg(dataDir).toString()));
            int zookeeperPort = Integer.parseInt(state.zookeeperPort());
            launcher.await("zookeeper", deadline, () -> Readiness.zookeeperServes(zookeeperPort));
            launcher.launch("nimbus", "org.apache.storm.daemon.nimbus.Nimbus", List.of("-Xmx256m"), List.of());
            launcher.await("nimbus", deadline, () -> Readiness.accepts(cluster.nimbusPort()));
            launcher.launch("supervisor", "org.apache.storm.daemon.supervisor.Supervisor", List.of("-Xmx256m"),
                List.of());
            launcher.await("supervisor", deadline, () -> Readiness.slotsOffered(cluster.clientConf(), SLOTS));
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            try {
                cluster.stop();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** The cluster whose state {@code dataDir} holds, whether or not its processes still run. */
    public static Optional<StormCluster> attach(Path dataDir) throws IOException {
        Path dir = dataDir.toAbsolutePath().normalize();
        return ClusterState.load(dir).map(state -> new StormCluster(dir, state));
    }

    /** The data directory. */
    public Path dataDir() {
        return dataDir;
    }

    /** The Storm home the daemons run from. */
    public Path stormHome() {
        return state.stormHome();
    }

    /** The storm.yaml the daemons (and the workers) read; also a usable client configuration. */
    public Path stormYaml() {
        return ClusterConfigFiles.stormYaml(dataDir);
    }

    /** The port Nimbus serves Thrift on. */
    public int nimbusPort() {
        return Integer.parseInt(state.nimbusPort());
    }

    /** The worker ports of the Supervisor's slots. */
    public List<Integer> slotPorts() {
        return state.slotPortList();
    }

    /** What a client needs to submit to this cluster, as storm.yaml lines. */
    public String clientYaml() {
        return "nimbus.seeds: [\"127.0.0.1\"]\nnimbus.thrift.port: " + nimbusPort() + "\n";
    }

    /** Storm's configuration for a client of this cluster: its defaults plus {@link #clientYaml()}. */
    public Map<String, Object> clientConf() {
        Map<String, Object> conf = Utils.readDefaultConfig();
        conf.put("nimbus.seeds", List.of("127.0.0.1"));
        conf.put("nimbus.thrift.port", nimbusPort());
        return conf;
    }

    /** The live processes of the cluster: its daemons, the workers and their log writers. */
    public List<ProcessHandle> processes() {
        return processes.all();
    }

    /** Each daemon's process id and whether it is alive, in start order. */
    public Map<String, String> status() {
        Map<String, String> status = new LinkedHashMap<>();
        for (int i = ClusterProcesses.DAEMONS.size() - 1; i >= 0; i--) {
            String daemon = ClusterProcesses.DAEMONS.get(i);
            String pid = state.pid(daemon);
            if (pid == null) {
                status.put(daemon, "not started");
            } else {
                boolean alive = ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
                status.put(daemon, "pid " + pid + (alive ? " running" : " not running"));
            }
        }
        status.put("workers", processes.workers().size() + " running");
        return status;
    }

    /**
     * Stops the workers, then the Supervisor, Nimbus and ZooKeeper: a polite SIGTERM first, SIGKILL for what is left after
     * a grace period. Workers are found both as descendants of the Supervisor and as any process whose command line names
     * this cluster's data directory (a worker outlives a Supervisor that died). Throws if any process is still alive
     * afterwards. Stopping a stopped cluster does nothing.
     */
    public void stop() {
        processes.stopAll();
    }

    /** {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }

    private static void requireHome(Path home) {
        for (String part : new String[] {"lib", "lib-worker", "log4j2/cluster.xml", "log4j2/worker.xml"}) {
            if (!Files.exists(home.resolve(part))) {
                throw new IllegalArgumentException("not a Storm home (no " + part + "): " + home
                    + "; build it with mvn -B -pl microburst-storm-cluster package");
            }
        }
    }
}
