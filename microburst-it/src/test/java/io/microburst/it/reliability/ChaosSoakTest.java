package io.microburst.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import io.microburst.MicroburstConfig;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.topology.TopologyBuilder;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chaos soak: acked topologies of several shapes (a chain, a fan-out, a fields grouping, a cycle, a ShellBolt,
 * task hooks everywhere) run while faults are injected at random from a printed seed: exceptions and Errors in every
 * user callback and hook, fails, dropped and double acks, slow executes, a killed subprocess, rebalances and
 * deactivate/activate. In the end every id is acked at least once, duplicates are reported, and heap after GC, threads,
 * working directories and subprocesses are back to where they were.
 *
 * <p>Short by default (about 15 s of faults); {@code -Dmicroburst.chaos.seconds=600} for a long run,
 * {@code -Dmicroburst.chaos.seed=...} to replay a seed, {@code -Dmicroburst.chaos.runs=20} for runs in a row.
 */
class ChaosSoakTest {
    private static final int IDS_PER_SECOND = 2_000;
    // named after this JVM, so that the check for working directories left behind reads only this JVM's
    private static final String DAG = "chaos-dag-" + ProcessHandle.current().pid();
    private static final String SHELL = "chaos-shell-" + ProcessHandle.current().pid();

    /** As many runs as {@code -Dmicroburst.chaos.runs} asks (default 1), each with a seed of its own. */
    static IntStream runs() {
        return IntStream.rangeClosed(1, Integer.getInteger("microburst.chaos.runs", 1));
    }

    @ParameterizedTest(name = "run {0}")
    @MethodSource("runs")
    void everyIdIsAckedAndNothingIsLeftBehind(int runNumber) throws Exception {
        int seconds = Integer.getInteger("microburst.chaos.seconds", 15);
        long seed = Long.getLong("microburst.chaos.seed", System.nanoTime());
        System.out.println("CHAOS run " + runNumber + " seed " + seed + " (replay: -Dmicroburst.chaos.seed=" + seed + "), " + seconds + " s");
        Chaos.reset(seed);
        Random random = new Random(seed);
        boolean python = MultiLang.pythonAvailable();
        long heapBefore = HeapSampler.usedAfterGcMb();
        int threadsBefore = liveThreads();
        long maxHeap = 0;
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        int maxIds = (seconds + 5) * IDS_PER_SECOND;
        List<String> names = new ArrayList<>(List.of(DAG));
        if (python) {
            names.add(SHELL);
        } else {
            System.out.println("CHAOS python3 not installed (Debian: apt-get install python3): no ShellBolt topology");
        }
        long kills = 0;
        long rebalances = 0;
        long deactivations = 0;
        long started = System.nanoTime();
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            for (String name : names) {
                Chaos.newRun(name, maxIds, IDS_PER_SECOND);
            }
            cluster.submitTopology(DAG, conf(), dag());
            if (python) {
                cluster.submitTopology(SHELL, conf(), shell());
            }
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (System.nanoTime() < end) {
                // pacing between topology-level faults, not a wait for a verdict
                Thread.sleep(300 + random.nextInt(700));
                maxHeap = Math.max(maxHeap, memory.getHeapMemoryUsage().getUsed());
                String name = names.get(random.nextInt(names.size()));
                int action = random.nextInt(python ? 3 : 2);
                if (action == 0) {
                    cluster.deactivate(name);
                    Thread.sleep(100 + random.nextInt(200));
                    cluster.activate(name);
                    deactivations++;
                } else if (action == 1) {
                    RebalanceOptions options = new RebalanceOptions();
                    options.set_wait_secs(0);
                    if (DAG.equals(name)) {
                        options.put_to_num_executors("c", 1 + random.nextInt(3));
                    }
                    cluster.rebalance(name, options);
                    awaitStatus(cluster, name, "ACTIVE");
                    rebalances++;
                } else if (killOneSubprocess(random)) {
                    kills++;
                }
            }
            for (String name : names) {
                Chaos.run(name).emitting = false;
                if (!"ACTIVE".equals(cluster.getTopologySummaryByName(name).get_status())) {
                    awaitStatus(cluster, name, "ACTIVE");
                }
            }
            for (String name : names) {
                Chaos.Run run = Chaos.run(name);
                Await.untilWhileProgressing("every id of " + name + " acked", Duration.ofSeconds(seconds + 240),
                    Duration.ofSeconds(60), run::progress, () -> run.lost() == 0,
                    () -> "ids " + run.ids() + " lost " + run.lost() + " faults " + Chaos.faults());
                maxHeap = Math.max(maxHeap, memory.getHeapMemoryUsage().getUsed());
            }
            StringBuilder figures = new StringBuilder();
            long lost = 0;
            for (String name : names) {
                Chaos.Run run = Chaos.run(name);
                lost += run.lost();
                figures.append(name).append(": ids ").append(run.ids()).append(", lost ").append(run.lost())
                    .append(", ids acked more than once ").append(run.ackedMoreThanOnce()).append(", spout emits ")
                    .append(run.emits.sum()).append(", spout fails ").append(run.fails.sum()).append("; ");
            }
            System.out.println("CHAOS " + figures + "faults " + Chaos.faultTotal() + " " + Chaos.faults()
                + ", subprocesses killed " + kills + ", rebalances " + rebalances + ", deactivations " + deactivations
                + ", max heap used " + maxHeap / (1 << 20) + " MB");
            assertEquals(0, lost, "ids lost");
            for (String name : names) {
                cluster.killTopologyWithOpts(name, new KillOptions() {
                    {
                        set_wait_secs(0);
                    }
                });
            }
        }
        Chaos.forget();
        Await.until("the cluster's threads gone", Duration.ofSeconds(30), () -> liveThreads() <= threadsBefore,
            () -> "threads " + liveThreads() + ", before " + threadsBefore);
        Await.until("no subprocess left", Duration.ofSeconds(30), () -> ProcessHandle.current().descendants()
            .noneMatch(ProcessHandle::isAlive));
        Await.until("no working directory left", Duration.ofSeconds(30), () -> workDirs().isEmpty(),
            () -> workDirs().toString());
        long heapAfter = HeapSampler.usedAfterGcMb();
        System.out.println("CHAOS heap after GC " + heapBefore + " MB before, " + heapAfter + " MB after; threads "
            + threadsBefore + " before, " + liveThreads() + " after; " + (System.nanoTime() - started) / 1_000_000_000L
            + " s");
        assertTrue(heapAfter <= heapBefore + 32, "heap after GC back near its baseline: " + heapBefore + " -> "
            + heapAfter + " MB");
    }

    private static Config conf() {
        Config conf = new Config();
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 3);
        conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 200);
        conf.put(Config.TOPOLOGY_AUTO_TASK_HOOKS, List.of(ChaosComponents.Hook.class.getName()));
        conf.put(MicroburstConfig.TASK_RESTART_BACKOFF_MS, 10);
        conf.put(MicroburstConfig.TASK_RESTART_BACKOFF_MAX_MS, 200);
        return conf;
    }

    /** A chain (spout, a, b), a fan-out of a's stream to b and c, a fields grouping into c, and a cycle (loop). */
    private static org.apache.storm.generated.StormTopology dag() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ChaosComponents.Spout(DAG), 2);
        b.setBolt("a", new ChaosComponents.Bolt(1, false), 2).shuffleGrouping("spout");
        b.setBolt("b", new ChaosComponents.Bolt(0, false), 2).shuffleGrouping("a");
        b.setBolt("c", new ChaosComponents.Bolt(2, false), 3).setNumTasks(3)
            .fieldsGrouping("a", new org.apache.storm.tuple.Fields("key"));
        b.setBolt("d", new ChaosComponents.Bolt(0, false), 1).shuffleGrouping("c");
        b.setBolt("loop", new ChaosComponents.Bolt(0, true), 2).shuffleGrouping("spout")
            .shuffleGrouping("loop", ChaosComponents.LOOP);
        return b.createTopology();
    }

    /** A ShellBolt between a spout and a sink. */
    private static org.apache.storm.generated.StormTopology shell() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ChaosComponents.Spout(SHELL), 1);
        b.setBolt("shell", new ChaosComponents.Shell(), 2).shuffleGrouping("spout");
        b.setBolt("sink", new ChaosComponents.Bolt(0, false), 1).shuffleGrouping("shell");
        return b.createTopology();
    }

    private static void awaitStatus(MicroburstCluster cluster, String name, String status) throws Exception {
        Await.until(name + " " + status, Duration.ofSeconds(60), () -> {
            try {
                return status.equals(cluster.getTopologySummaryByName(name).get_status());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Kills one of the ShellBolts' Python subprocesses, if one runs. */
    private static boolean killOneSubprocess(Random random) {
        List<ProcessHandle> relays = ProcessHandle.current().descendants()
            .filter(p -> p.info().commandLine().orElse("").contains("chaos_relay.py")).toList();
        if (relays.isEmpty()) {
            return false;
        }
        boolean killed = relays.get(random.nextInt(relays.size())).destroyForcibly();
        if (killed) {
            Chaos.count("subprocess killed");
        }
        return killed;
    }

    /** Threads of the JVM, less those the JDK keeps for a while on its own (the reaper of finished subprocesses). */
    private static int liveThreads() {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && !t.getName().startsWith("process reaper")) {
                n++;
            }
        }
        return n;
    }

    private static List<String> workDirs() {
        String[] names = new File(System.getProperty("java.io.tmpdir")).list();
        List<String> left = new ArrayList<>();
        if (names != null) {
            for (String n : names) {
                if (n.startsWith("microburst-" + DAG + "-") || n.startsWith("microburst-" + SHELL + "-")) {
                    left.add(n);
                }
            }
        }
        return left;
    }

    /** Whether python3 runs here. */
    private static final class MultiLang {
        static boolean pythonAvailable() {
            try {
                Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
            } catch (Exception e) {
                return false;
            }
        }
    }
}
