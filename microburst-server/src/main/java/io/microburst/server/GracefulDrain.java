package io.microburst.server;

import io.microburst.MicroburstCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.storm.generated.TopologySummary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The drain of a graceful stop (SIGTERM, {@code systemctl stop}): every topology's spouts are deactivated on the
 * cluster, then the server waits until every executor is idle (the tuples in flight, and the acks they cause, are
 * processed) for at most {@value ServerConfig#STOP_WAIT_SECS} seconds, before the cluster stops the topologies. The
 * deactivation is the cluster's alone, never stored: a restart brings each topology back in its stored status.
 *
 * <p>Tuples a bolt keeps (a window, a stateful bolt's input waiting for the next checkpoint) are not waited for: they
 * are not acked when the topology stops, so a reliable spout replays them after the restart, as after Storm's kill.
 *
 * <p>Threading: {@link #request()} from any thread; {@link #drain()} on the thread that closes the server, which runs
 * it after the Thrift service, the pages and the logviewer stopped taking requests and before the cluster stops.
 * Without a request, {@link #drain()} does nothing: a {@link MicroburstServer#close()} stops at once, as before.
 */
final class GracefulDrain {
    private static final Logger LOG = LoggerFactory.getLogger(GracefulDrain.class);

    private final MicroburstCluster cluster;
    private final int waitSecs;
    private volatile boolean requested;
    /** Whether the last drain found every executor idle (or had nothing to wait for). */
    private volatile boolean drained = true;

    GracefulDrain(MicroburstCluster cluster, int waitSecs) {
        this.cluster = cluster;
        this.waitSecs = waitSecs;
    }

    /** Makes the next {@link #drain()} drain. */
    void request() {
        requested = true;
    }

    /** Whether the drain, if there was one, saw every executor idle before the topologies were stopped. */
    boolean drained() {
        return drained;
    }

    /** Deactivates every topology's spouts and waits for the tuples in flight, when a graceful stop was requested. */
    void drain() throws InterruptedException {
        if (!requested) {
            return;
        }
        List<String> names = new ArrayList<>();
        for (TopologySummary summary : cluster.getTopologySummaries()) {
            names.add(summary.get_name());
        }
        if (names.isEmpty()) {
            return;
        }
        LOG.info("Graceful stop: deactivating {} and waiting up to {} s for the tuples in flight ({})", names,
            waitSecs, ServerConfig.STOP_WAIT_SECS);
        for (String name : names) {
            try {
                cluster.deactivate(name);
            } catch (Exception e) {
                LOG.info("Graceful stop: {} is already gone ({})", name, e.toString());
            }
        }
        long start = System.nanoTime();
        boolean idle = cluster.awaitIdle(TimeUnit.SECONDS.toMillis(waitSecs));
        drained = idle;
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        if (idle) {
            LOG.info("Graceful stop: drained in {} ms; stopping the topologies", tookMs);
        } else {
            LOG.warn("Graceful stop: tuples still in flight after {} s ({}); stopping the topologies anyway, "
                + "reliable spouts replay them after the next start", waitSecs, ServerConfig.STOP_WAIT_SECS);
        }
    }
}
