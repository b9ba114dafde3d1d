package io.microburst.stormcluster;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.SupervisorSummary;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;

/**
 * A real single-machine Apache Storm cluster: a ZooKeeper server, Nimbus and one Supervisor, each its own JVM, started
 * from a Storm home assembled from published artifacts ({@code lib/}, {@code lib-worker/}, {@code log4j2/}), with every
 * file it writes (configuration, ZooKeeper data, Storm's local state, logs, worker artifacts) under one data directory.
 * ZooKeeper, Nimbus and the workers advertise 127.0.0.1; ports are picked free at start.
 *
 * <p>The processes outlive this object (a command-line {@code up} returns while the cluster runs); {@link #stop()} or
 * {@link #stop(Path)} from any JVM ends them and the worker JVMs the Supervisor launched, and checks that none is left.
 * The state (process ids, ports) is kept in {@code cluster.properties} in the data directory.
 *
 * <p>Not thread-safe: one caller starts and stops a cluster.
 */
public final class StormCluster implements AutoCloseable {
    /** Worker slots the Supervisor offers. */
    public static final int SLOTS = 2;

    private static final String STATE_FILE = "cluster.properties";
    private static final String[] DAEMONS = {"supervisor", "nimbus", "zookeeper"};
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final Path dataDir;
    private final Properties state;

    private StormCluster(Path dataDir, Properties state) {
        this.dataDir = dataDir;
        this.state = state;
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
        if (attach(dataDir).filter(StormCluster::anyAlive).isPresent()) {
            throw new IllegalStateException("a Storm cluster already runs with its data in " + dataDir
                + "; stop it first");
        }
        for (String dir : new String[] {"conf", "logs", "storm-local", "zookeeper"}) {
            Files.createDirectories(dataDir.resolve(dir));
        }
        Properties state = new Properties();
        state.setProperty("home", stormHome.toString());
        int[] ports = freePorts(5);
        state.setProperty("zookeeper.port", Integer.toString(ports[0]));
        state.setProperty("nimbus.port", Integer.toString(ports[1]));
        state.setProperty("supervisor.port", Integer.toString(ports[2]));
        state.setProperty("slot.ports", ports[3] + "," + ports[4]);
        StormCluster cluster = new StormCluster(dataDir, state);
        cluster.writeConfigs();
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            cluster.launch("zookeeper", "org.apache.zookeeper.server.quorum.QuorumPeerMain",
                List.of("-Xmx128m", "-Dzookeeper.admin.enableServer=false"),
                List.of(dataDir.resolve("conf/zoo.cfg").toString()));
            cluster.await("zookeeper", deadline, () -> zookeeperServes(ports[0]));
            cluster.launch("nimbus", "org.apache.storm.daemon.nimbus.Nimbus", List.of("-Xmx256m"), List.of());
            cluster.await("nimbus", deadline, () -> accepts(ports[1]));
            cluster.launch("supervisor", "org.apache.storm.daemon.supervisor.Supervisor", List.of("-Xmx256m"),
                List.of());
            cluster.await("supervisor", deadline, cluster::slotsOffered);
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
        dataDir = dataDir.toAbsolutePath().normalize();
        Path file = dataDir.resolve(STATE_FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        Properties state = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            state.load(in);
        }
        return Optional.of(new StormCluster(dataDir, state));
    }

    /** The data directory. */
    public Path dataDir() {
        return dataDir;
    }

    /** The Storm home the daemons run from. */
    public Path stormHome() {
        return Path.of(state.getProperty("home"));
    }

    /** The storm.yaml the daemons (and the workers) read; also a usable client configuration. */
    public Path stormYaml() {
        return dataDir.resolve("conf/storm.yaml");
    }

    /** The port Nimbus serves Thrift on. */
    public int nimbusPort() {
        return Integer.parseInt(state.getProperty("nimbus.port"));
    }

    /** The worker ports of the Supervisor's slots. */
    public List<Integer> slotPorts() {
        List<Integer> ports = new ArrayList<>();
        for (String port : state.getProperty("slot.ports").split(",")) {
            ports.add(Integer.parseInt(port));
        }
        return ports;
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
        List<ProcessHandle> all = new ArrayList<>();
        for (String daemon : DAEMONS) {
            daemon(daemon).ifPresent(all::add);
        }
        all.addAll(workerProcesses());
        return all;
    }

    /** Each daemon's process id and whether it is alive, in start order. */
    public Map<String, String> status() {
        Map<String, String> status = new LinkedHashMap<>();
        for (int i = DAEMONS.length - 1; i >= 0; i--) {
            String daemon = DAEMONS[i];
            String pid = state.getProperty(daemon + ".pid");
            if (pid == null) {
                status.put(daemon, "not started");
            } else {
                boolean alive = ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
                status.put(daemon, "pid " + pid + (alive ? " running" : " not running"));
            }
        }
        status.put("workers", workerProcesses().size() + " running");
        return status;
    }

    /**
     * Stops the workers, then the Supervisor, Nimbus and ZooKeeper: a polite SIGTERM first, SIGKILL for what is left after
     * a grace period. Workers are found both as descendants of the Supervisor and as any process whose command line names
     * this cluster's data directory (a worker outlives a Supervisor that died). Throws if any process is still alive
     * afterwards. Stopping a stopped cluster does nothing.
     */
    public void stop() {
        List<ProcessHandle> workers = new ArrayList<>(workerProcesses());
        daemon("supervisor").ifPresent(s -> s.descendants().forEach(workers::add));
        terminate(workers);
        for (String daemon : DAEMONS) {
            daemon(daemon).ifPresent(d -> {
                List<ProcessHandle> tree = new ArrayList<>(d.descendants().toList());
                tree.add(d);
                terminate(tree);
            });
        }
        List<ProcessHandle> left = new ArrayList<>(workerProcesses());
        for (String daemon : DAEMONS) {
            daemon(daemon).filter(ProcessHandle::isAlive).ifPresent(left::add);
        }
        if (!left.isEmpty()) {
            throw new IllegalStateException("processes of the Storm cluster in " + dataDir + " still alive: "
                + left.stream().map(p -> Long.toString(p.pid())).toList());
        }
    }

    /** {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }

    private static boolean anyAlive(StormCluster cluster) {
        for (String daemon : DAEMONS) {
            if (cluster.daemon(daemon).isPresent()) {
                return true;
            }
        }
        return !cluster.workerProcesses().isEmpty();
    }

    /** The live process of {@code daemon}, if it was started and still runs with this cluster's data directory. */
    private Optional<ProcessHandle> daemon(String daemon) {
        String pid = state.getProperty(daemon + ".pid");
        if (pid == null) {
            return Optional.empty();
        }
        // A recycled pid is not ours: the command line must name our data directory.
        return ProcessHandle.of(Long.parseLong(pid)).filter(ProcessHandle::isAlive).filter(this::namesDataDir);
    }

    /** Processes other than the daemons whose command line names this data directory: workers and their log writers. */
    private List<ProcessHandle> workerProcesses() {
        List<Long> daemons = new ArrayList<>();
        for (String daemon : DAEMONS) {
            String pid = state.getProperty(daemon + ".pid");
            if (pid != null) {
                daemons.add(Long.parseLong(pid));
            }
        }
        long self = ProcessHandle.current().pid();
        return ProcessHandle.allProcesses()
            .filter(p -> p.pid() != self && !daemons.contains(p.pid()))
            .filter(this::namesDataDir)
            .toList();
    }

    private boolean namesDataDir(ProcessHandle process) {
        String marker = "-Dstorm.local.dir=" + dataDir.resolve("storm-local");
        String zkMarker = dataDir.resolve("conf/zoo.cfg").toString();
        return process.info().arguments()
            .map(args -> {
                for (String arg : args) {
                    if (arg.equals(marker) || arg.equals(zkMarker)) {
                        return true;
                    }
                }
                return false;
            })
            .orElse(false);
    }

    private static void terminate(List<ProcessHandle> processes) {
        for (ProcessHandle p : processes) {
            p.destroy();
        }
        long deadline = System.nanoTime() + STOP_GRACE.toNanos();
        for (ProcessHandle p : processes) {
            long left = deadline - System.nanoTime();
            try {
                if (left > 0) {
                    p.onExit().get(left, TimeUnit.NANOSECONDS);
                }
            } catch (Exception stillRunning) {
                // forced below
            }
            if (p.isAlive()) {
                p.destroyForcibly();
                try {
                    p.onExit().get(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                } catch (Exception e) {
                    // reported by the caller's check
                }
            }
        }
    }

    private void launch(String daemon, String mainClass, List<String> jvmOptions, List<String> args)
        throws IOException {
        Path home = stormHome();
        Path logs = dataDir.resolve("logs");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:+UseSerialGC");
        command.add("-Dstorm.home=" + home);
        command.add("-Dstorm.log.dir=" + logs);
        command.add("-Dlogfile.name=" + daemon + ".log");
        command.add("-Dlog4j.configurationFile=" + home.resolve("log4j2/cluster.xml"));
        command.add("-Dstorm.conf.file=" + stormYaml());
        // Marks the process as this cluster's (Storm also passes it on to every worker).
        command.add("-Dstorm.local.dir=" + dataDir.resolve("storm-local"));
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(home.resolve("lib") + "/*");
        command.add(mainClass);
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command)
            .directory(dataDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve(daemon + ".out").toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // Workers run with $JAVA_HOME/bin/java and take the conf directory on their class path.
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("STORM_CONF_DIR", dataDir.resolve("conf").toString());
        Process process = builder.start();
        state.setProperty(daemon + ".pid", Long.toString(process.pid()));
        saveState();
    }

    private void await(String daemon, long deadline, BooleanSupplier ready) throws InterruptedException {
        while (!ready.getAsBoolean()) {
            if (daemon(daemon).isEmpty()) {
                throw new IllegalStateException("Storm cluster: " + daemon + " exited during start; see "
                    + dataDir.resolve("logs/" + daemon + ".out") + " and " + daemon + ".log");
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("Storm cluster: " + daemon + " not ready in time; see "
                    + dataDir.resolve("logs/" + daemon + ".log"));
            }
            Thread.sleep(200);
        }
    }

    /** Whether Nimbus lists a Supervisor with all {@link #SLOTS} slots: the cluster then accepts topologies. */
    private boolean slotsOffered() {
        try (NimbusClient client = NimbusClient.getConfiguredClient(clientConf(), 5_000)) {
            ClusterSummary summary = client.getClient().getClusterInfo();
            for (SupervisorSummary supervisor : summary.get_supervisors()) {
                if (supervisor.get_num_workers() >= SLOTS) {
                    return true;
                }
            }
            return false;
        } catch (Exception notYet) {
            return false;
        }
    }

    /** Whether ZooKeeper answers its {@code srvr} command as a serving server (its port opens before it serves). */
    private static boolean zookeeperServes(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            socket.setSoTimeout(2_000);
            socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            return answer.contains("Mode:");
        } catch (IOException notYet) {
            return false;
        }
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException notYet) {
            return false;
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

    private static void requireHome(Path home) {
        for (String part : new String[] {"lib", "lib-worker", "log4j2/cluster.xml", "log4j2/worker.xml"}) {
            if (!Files.exists(home.resolve(part))) {
                throw new IllegalArgumentException("not a Storm home (no " + part + "): " + home
                    + "; build it with mvn -B -pl microburst-storm-cluster package");
            }
        }
    }

    private void writeConfigs() throws IOException {
        String yaml = "# Written by StormCluster: a single-machine Apache Storm cluster on 127.0.0.1.\n"
            + "storm.zookeeper.servers: [\"127.0.0.1\"]\n"
            + "storm.zookeeper.port: " + state.getProperty("zookeeper.port") + "\n"
            + "storm.local.hostname: \"127.0.0.1\"\n"
            + "storm.local.dir: \"" + dataDir.resolve("storm-local") + "\"\n"
            // Nimbus' metrics store; relative, it would be written into the Storm home.
            + "storm.metricstore.rocksdb.location: \"" + dataDir.resolve("storm-local/metrics") + "\"\n"
            + "nimbus.seeds: [\"127.0.0.1\"]\n"
            + "nimbus.thrift.port: " + state.getProperty("nimbus.port") + "\n"
            + "supervisor.thrift.port: " + state.getProperty("supervisor.port") + "\n"
            + "supervisor.slots.ports: [" + state.getProperty("slot.ports") + "]\n"
            // Storm's default scheduler honours topology.workers (the resource-aware one packs executors instead).
            + "storm.scheduler: \"org.apache.storm.scheduler.DefaultScheduler\"\n"
            + "worker.heap.memory.mb: 512\n"
            + "worker.childopts: \"-Xmx%HEAP-MEM%m\"\n"
            // One machine: no reason to wait for Nimbus' 10 s monitor before an assignment or a rebalance.
            + "nimbus.monitor.freq.secs: 2\n"
            // Nor for the supervisor's 30 s check for newer versions of the blobs that topologies localize.
            + "supervisor.localizer.update.blob.interval.secs: 1\n";
        Files.writeString(stormYaml(), yaml, StandardCharsets.UTF_8);
        String zoo = "tickTime=2000\n"
            + "dataDir=" + dataDir.resolve("zookeeper") + "\n"
            + "clientPort=" + state.getProperty("zookeeper.port") + "\n"
            + "clientPortAddress=127.0.0.1\n"
            + "maxClientCnxns=0\n"
            + "admin.enableServer=false\n";
        Files.writeString(dataDir.resolve("conf/zoo.cfg"), zoo, StandardCharsets.UTF_8);
        saveState();
    }

    private void saveState() {
        try (OutputStream out = Files.newOutputStream(dataDir.resolve(STATE_FILE))) {
            state.store(out, "Storm cluster state: process ids and ports");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
