package io.microburst.cluster;

import io.microburst.runtime.topology.Quiescence;
import io.microburst.runtime.clock.SharedTimer;
import org.apache.storm.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Steps Storm's simulated clock ({@code org.apache.storm.utils.Time}) for a cluster: each step fires what came due on
 * the cluster's timer, then waits until the cluster's topologies are idle. Owns the simulated time the cluster turned
 * on, if any, and ends it at {@link #close()}.
 *
 * <p>Threading: any thread (a test's); the idle wait only reads the executors' idle counters.
 */
public final class ClusterClock implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterClock.class);
    private final SharedTimer timer;
    private final TopologyTable topologies;
    /** The simulated time this cluster turned on, or null. */
    private final Time.SimulatedTime simulatedTime;
    /** How long {@link #waitForIdle()} waits, as Storm's test timeout. */
    private final long idleTimeoutMs = idleTimeoutMs();
    private volatile boolean idleTimeoutLogged;

    /** {@code simulatedTime}: the simulated time to end at {@link #close()}, or null. */
    public ClusterClock(SharedTimer timer, TopologyTable topologies, Time.SimulatedTime simulatedTime) {
        this.timer = timer;
        this.topologies = topologies;
        this.simulatedTime = simulatedTime;
    }

    /**
     * Advances simulated time by {@code secs}, {@code incSecs} at a time, waiting for idle (as {@link #waitForIdle()})
     * before the first step and after each. On a cluster made while simulated time was on, tick tuples, message
     * timeouts and IMetric collection follow that clock, so each step fires what came due. Storm waits only for its
     * daemons' timers there; waiting for the executors too makes each step see the effects of the previous one. The
     * wait gives up after Storm's test timeout (10 s, or {@code STORM_TEST_TIMEOUT_MS}) when a spout never stops
     * emitting, and time advances anyway.
     *
     * @throws IllegalStateException when simulated time is off
     */
    public void advance(int secs, int incSecs) throws InterruptedException {
        if (!Time.isSimulating()) {
            throw new IllegalStateException("Cannot advance cluster time: simulated time is off (build the cluster "
                + "with new MicroburstCluster.Builder().withSimulatedTime(), or start org.apache.storm.utils.Time"
                + ".SimulatedTime)");
        }
        int step = Math.max(1, incSecs);
        waitForIdle();
        for (int left = secs; left > 0; left -= step) {
            Time.advanceTimeSecs(Math.min(step, left));
            timer.fireDueOnStormClock();
            waitForIdle();
        }
    }

    /**
     * Waits until every topology is idle: every executor has taken a whole turn that found nothing to do, twice in a
     * row with no work in between (an executor sleeping on Storm's simulated clock counts as idle). Gives up after
     * Storm's test timeout (logged once); returns whether the cluster was idle.
     */
    public boolean waitForIdle() throws InterruptedException {
        boolean idle = Quiescence.await(topologies.all(), idleTimeoutMs);
        if (!idle && !idleTimeoutLogged) {
            idleTimeoutLogged = true;
            LOG.warn("The topologies were not idle after {} ms (a spout that never stops emitting?); advancing "
                + "simulated time anyway", idleTimeoutMs);
        }
        return idle;
    }

    /** Ends the simulated time this cluster turned on. */
    @Override
    public void close() {
        if (simulatedTime != null) {
            simulatedTime.close();
        }
    }

    /** Storm's test timeout: {@code STORM_TEST_TIMEOUT_MS} from the environment, else 10 s. */
    private static long idleTimeoutMs() {
        String value = System.getenv("STORM_TEST_TIMEOUT_MS");
        if (value != null) {
            try {
                return Math.max(1, Long.parseLong(value.trim()));
            } catch (NumberFormatException e) {
                LOG.warn("STORM_TEST_TIMEOUT_MS is not a number: '{}'; using 10000", value);
            }
        }
        return 10_000;
    }
}
