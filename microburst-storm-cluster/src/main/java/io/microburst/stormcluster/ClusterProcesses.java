package io.microburst.stormcluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds a cluster's live processes and ends them. A process is the cluster's when its command line names the data
 * directory: a daemon by the pid in the state whose command line still names it (a recycled pid is not ours), a worker
 * or its log writer by that alone (a worker outlives a Supervisor that died).
 *
 * <p>Not thread-safe: used by the one caller that starts or stops the cluster.
 */
final class ClusterProcesses {
    /** The daemons in the order they are stopped; they start in the reverse order. */
    static final List<String> DAEMONS = List.of("supervisor", "nimbus", "zookeeper");
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final Path dataDir;
    private final ClusterState state;

    ClusterProcesses(Path dataDir, ClusterState state) {
        this.dataDir = dataDir;
        this.state = state;
    }

    /** The live process of {@code daemon}, if it was started and still runs with this cluster's data directory. */
    Optional<ProcessHandle> daemon(String daemon) {
        String pid = state.pid(daemon);
        if (pid == null) {
            return Optional.empty();
        }
        // A recycled pid is not ours: the command line must name our data directory.
        return ProcessHandle.of(Long.parseLong(pid)).filter(ProcessHandle::isAlive).filter(this::namesDataDir);
    }

    /** Processes other than the daemons whose command line names this data directory: workers and their log writers. */
    List<ProcessHandle> workers() {
        List<Long> daemons = new ArrayList<>();
        for (String daemon : DAEMONS) {
            String pid = state.pid(daemon);
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

    /** The live daemons, then the workers and their log writers. */
    List<ProcessHandle> all() {
        List<ProcessHandle> all = new ArrayList<>();
        for (String daemon : DAEMONS) {
            daemon(daemon).ifPresent(all::add);
        }
        all.addAll(workers());
        return all;
    }

    boolean anyAlive() {
        for (String daemon : DAEMONS) {
            if (daemon(daemon).isPresent()) {
                return true;
            }
        }
        return !workers().isEmpty();
    }

    /**
     * Ends the workers, then each daemon with what it launched, in {@link #DAEMONS} order: SIGTERM first, SIGKILL for
     * what is left after a grace period. Throws if any process is still alive afterwards.
     */
    void stopAll() {
        List<ProcessHandle> workers = new ArrayList<>(workers());
        daemon("supervisor").ifPresent(s -> s.descendants().forEach(workers::add));
        terminate(workers);
        for (String daemon : DAEMONS) {
            daemon(daemon).ifPresent(d -> {
                List<ProcessHandle> tree = new ArrayList<>(d.descendants().toList());
                tree.add(d);
                terminate(tree);
            });
        }
        List<ProcessHandle> left = new ArrayList<>(workers());
        for (String daemon : DAEMONS) {
            daemon(daemon).filter(ProcessHandle::isAlive).ifPresent(left::add);
        }
        if (!left.isEmpty()) {
            throw new IllegalStateException("processes of the Storm cluster in " + dataDir + " still alive: "
                + left.stream().map(p -> Long.toString(p.pid())).toList());
        }
    }

    private boolean namesDataDir(ProcessHandle process) {
        String marker = "-Dstorm.local.dir=" + dataDir.resolve("storm-local");
        String zkMarker = ClusterConfigFiles.zooCfg(dataDir).toString();
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
}
