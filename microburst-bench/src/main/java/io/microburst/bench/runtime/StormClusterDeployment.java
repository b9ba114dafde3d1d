package io.microburst.bench.runtime;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.workload.BenchData;
import io.microburst.bench.workload.Workload;
import io.microburst.stormcluster.StormCluster;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.storm.Config;
import org.apache.storm.StormSubmitter;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.utils.NimbusClient;

/**
 * A workload on a real single-machine Apache Storm cluster ({@link StormCluster}: ZooKeeper, Nimbus, a Supervisor) with
 * two worker processes, submitted with {@link StormSubmitter} as a user would. Start-up is timed from starting the
 * cluster. The topology's classes reach the workers as the submitted jar (this module's) plus
 * {@code topology.classpath} entries for what it needs besides storm-client (HdrHistogram, JCTools, microburst-core):
 * everything is on this one machine. Workers export their last-component count to files (see
 * {@link Probes#EXPORT_FILE}); CPU, threads and resident memory are summed over every process of the cluster, daemons
 * included, read from procfs.
 */
final class StormClusterDeployment implements Deployment {
    /** Where a Storm home is looked for when {@value #HOME_PROPERTY} is not set: from the working directory upwards. */
    static final String HOME_IN_PROJECT = "microburst-storm-cluster/target/storm-home";
    /** System property naming the Storm home to start the cluster from. */
    static final String HOME_PROPERTY = "microburst.storm.home";
    static final int WORKERS = 2;
    /** Clock ticks per second of procfs CPU times (USER_HZ, 100 on Linux). */
    private static final long TICKS_PER_SECOND = 100;

    private final StormCluster cluster;
    private final Path probes;
    private final String topologyName;
    private long firstSeenNanos;

    private StormClusterDeployment(StormCluster cluster, Path probes, String topologyName) {
        this.cluster = cluster;
        this.probes = probes;
        this.topologyName = topologyName;
    }

    /** Builds the topology and configuration of {@code workload}; the launch starts the cluster and submits. */
    static Runtimes.Launch prepare(Workload workload) {
        Map<String, Object> conf = workload.config();
        StormTopology topology = workload.topology();
        return () -> start(workload, conf, topology);
    }

    private static StormClusterDeployment start(Workload workload, Map<String, Object> conf, StormTopology topology)
        throws Exception {
        Path home = stormHome();
        Path scratch = Files.createTempDirectory("storm-cluster-2w");
        Path probes = Files.createDirectories(scratch.resolve("probes"));
        StormCluster cluster = StormCluster.start(home, scratch.resolve("cluster"), Duration.ofMinutes(2));
        try {
            Map<String, Object> submit = new HashMap<>(conf);
            submit.putAll(cluster.clientConf());
            submit.put(Config.TOPOLOGY_WORKERS, WORKERS);
            submit.put(Config.TOPOLOGY_CLASSPATH, workerClassPath());
            List<String> childopts = new ArrayList<>(heapFlags());
            childopts.add("-D" + Probes.EXPORT_FILE + "=" + probes.resolve("worker-%ID%.count"));
            childopts.add("-D" + BenchData.PROPERTY + "=" + BenchData.dir());
            submit.put(Config.TOPOLOGY_WORKER_CHILDOPTS, String.join(" ", childopts));
            System.setProperty("storm.jar", codeSource(Probes.class).toString());
            StormSubmitter.submitTopology(workload.name(), submit, topology);
            return new StormClusterDeployment(cluster, probes, workload.name());
        } catch (Exception | Error e) {
            try {
                cluster.stop();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    @Override
    public long delivered() {
        long sum = 0;
        try (Stream<Path> files = Files.list(probes)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".count")).toList()) {
                sum += Probes.readExported(file);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read worker counts in " + probes, e);
        }
        return sum;
    }

    @Override
    public long firstTupleNanos() {
        if (firstSeenNanos == 0 && delivered() > 0) {
            firstSeenNanos = System.nanoTime();
        }
        return firstSeenNanos;
    }

    @Override
    public long cpuNanos() {
        long ticks = 0;
        for (ProcessHandle p : cluster.processes()) {
            ticks += cpuTicks(p.pid());
        }
        return ticks * (1_000_000_000L / TICKS_PER_SECOND);
    }

    @Override
    public int threads() {
        long sum = 0;
        for (ProcessHandle p : cluster.processes()) {
            sum += statusField(p.pid(), "Threads:");
        }
        return (int) sum;
    }

    @Override
    public long residentBytes() {
        long sum = 0;
        for (ProcessHandle p : cluster.processes()) {
            sum += statusField(p.pid(), "VmRSS:") * 1024;
        }
        return sum;
    }

    @Override
    public void close() throws Exception {
        try (NimbusClient nimbus = NimbusClient.getConfiguredClient(cluster.clientConf())) {
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            nimbus.getClient().killTopologyWithOpts(topologyName, now);
        } finally {
            cluster.stop();
        }
    }

    /** The Storm home: {@value #HOME_PROPERTY}, else {@value #HOME_IN_PROJECT} in the working directory or above. */
    static Path stormHome() {
        String configured = System.getProperty(HOME_PROPERTY);
        if (configured != null) {
            return Path.of(configured);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path home = dir.resolve(HOME_IN_PROJECT);
            if (Files.isDirectory(home.resolve("lib-worker"))) {
                return home;
            }
        }
        throw new IllegalStateException("no Storm home: set -D" + HOME_PROPERTY + " or build " + HOME_IN_PROJECT
            + " (mvn -pl microburst-storm-cluster package) and run from the project");
    }

    /** Jars the workload classes need besides storm-client, found by a class each holds. */
    private static List<String> workerClassPath() {
        List<String> paths = new ArrayList<>();
        for (Class<?> c : new Class<?>[] {org.HdrHistogram.Histogram.class, org.jctools.queues.SpscArrayQueue.class,
            io.microburst.MicroburstConfig.class}) {
            paths.add(codeSource(c).toString());
        }
        return paths;
    }

    private static Path codeSource(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** This JVM's heap flags, so that each worker gets the same heap as the in-process runtimes. */
    private static List<String> heapFlags() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(a -> a.startsWith("-Xmx") || a.startsWith("-Xms"))
            .toList();
    }

    private static long cpuTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // Fields after the command name in parentheses; utime and stime are the 14th and 15th fields overall.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException gone) {
            return 0;
        }
    }

    private static long statusField(long pid, String name) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith(name)) {
                    return Long.parseLong(line.substring(name.length()).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException gone) {
            // exited meanwhile
        }
        return 0;
    }
}
