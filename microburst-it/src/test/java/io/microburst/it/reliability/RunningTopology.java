package io.microburst.it.reliability;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.TopologySummary;

/**
 * A topology submitted for one test. Closing it kills it at once (if the test has not killed it already) and
 * waits until the cluster no longer lists it, so nothing a test starts outlives the test.
 */
// close() waits, so it may be interrupted; an interrupted test fails anyway.
@SuppressWarnings("try")
final class RunningTopology implements AutoCloseable {
    private static final AtomicLong NAMES = new AtomicLong();
    private static final Duration REMOVAL_LIMIT = Duration.ofSeconds(60);

    private final ILocalCluster cluster;
    private final String name;
    private boolean killed;

    private RunningTopology(ILocalCluster cluster, String name) {
        this.cluster = cluster;
        this.name = name;
    }

    static RunningTopology submit(ILocalCluster cluster, String label, Map<String, Object> conf, StormTopology topology)
            throws Exception {
        String name = label + "-" + NAMES.incrementAndGet();
        cluster.submitTopology(name, conf, topology);
        return new RunningTopology(cluster, name);
    }

    String name() {
        return name;
    }

    String id() throws Exception {
        return summary().get_id();
    }

    /** Kills with Storm's wait: spouts are deactivated, then the topology is removed after waitSecs. */
    void kill(int waitSecs) throws Exception {
        KillOptions options = new KillOptions();
        options.set_wait_secs(waitSecs);
        killed = true;
        cluster.killTopologyWithOpts(name, options);
    }

    void awaitRemoved(Duration limit) throws Exception {
        Await.until("topology " + name + " to be removed", limit, this::isGone);
    }

    @Override
    public void close() throws Exception {
        if (!killed) {
            kill(0);
        }
        awaitRemoved(REMOVAL_LIMIT);
    }

    private boolean isGone() {
        try {
            for (TopologySummary summary : cluster.getTopologySummaries()) {
                if (summary.get_name().equals(name)) {
                    return false;
                }
            }
            return true;
        } catch (Exception e) {
            throw new IllegalStateException("listing topologies failed", e);
        }
    }

    private TopologySummary summary() throws Exception {
        return cluster.getTopologySummaryByName(name);
    }
}
