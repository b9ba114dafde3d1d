package io.microburst.cli.local;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.TopologySummary;

/**
 * Stops a local run exactly once: kills every running topology with a grace period (Storm deactivates the spouts
 * first, so tuples in flight can finish), waits for the cluster to drop them, then closes the cluster.
 *
 * <p>Thread-safe: called by the main thread when the run's duration ends and by the shutdown hook on Ctrl-C; whoever
 * comes second waits for the first to finish and then returns.
 */
public final class GracefulStop {
    /** How long past the grace period to wait for the cluster to drop a killed topology before closing anyway. */
    private static final Duration REMOVAL_SLACK = Duration.ofSeconds(10);
    private static final long POLL_MILLIS = 50;

    private final ILocalCluster cluster;
    private final int killWaitSecs;
    private final PrintStream log;
    private boolean stopped;

    /**
     * @param cluster the cluster to stop and close
     * @param killWaitSecs the grace period, Storm's {@code KillOptions.wait_secs}
     * @param log where progress and errors are reported
     */
    public GracefulStop(ILocalCluster cluster, int killWaitSecs, PrintStream log) {
        this.cluster = cluster;
        this.killWaitSecs = killWaitSecs;
        this.log = log;
    }

    /** Kills {@code topologies} (those already gone are skipped) and closes the cluster; a no-op after the first call. */
    public synchronized void stop(Set<String> topologies) {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            KillOptions options = new KillOptions();
            options.set_wait_secs(killWaitSecs);
            for (String name : topologies) {
                killQuietly(name, options);
            }
            awaitRemoval(topologies);
        } finally {
            try {
                cluster.close();
            } catch (Exception e) {
                log.println("microburst: closing the cluster failed: " + e);
            }
        }
    }

    private void killQuietly(String name, KillOptions options) {
        try {
            log.println("microburst: killing topology " + name + " (waiting " + killWaitSecs + " s)");
            cluster.killTopologyWithOpts(name, options);
        } catch (Exception e) {
            // Already dead, or the cluster is broken: either way closing it below is still right.
            log.println("microburst: killing topology " + name + " failed: " + e);
        }
    }

    private void awaitRemoval(Set<String> topologies) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(killWaitSecs) + REMOVAL_SLACK.toNanos();
        try {
            while (anyStillRunning(topologies)) {
                if (System.nanoTime() - deadline > 0) {
                    log.println("microburst: topologies still running after the grace period; closing anyway");
                    return;
                }
                Thread.sleep(POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean anyStillRunning(Set<String> topologies) {
        if (topologies.isEmpty()) {
            return false;
        }
        try {
            for (TopologySummary summary : cluster.getTopologySummaries()) {
                if (topologies.contains(summary.get_name())) {
                    return true;
                }
            }
            return false;
        } catch (Exception e) {
            return false;
        }
    }
}
