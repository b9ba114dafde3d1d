package io.microburst.cluster.upgrade;

import io.microburst.cluster.StateReadHold;
import io.microburst.cluster.TopologySubmitter;
import io.microburst.cluster.TransactionalStateServer;
import io.microburst.runtime.topology.TopologyRuntime;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An upgrade's new Trident coordinators, opened early: when the new version keeps its Trident state in the cluster's
 * transactional state server, its coordinators open beside the old version (their ZooKeeper clients connect, create
 * their roots, and close and reopen, which sleeps about 100 ms), and their first reads are held in the server
 * ({@link StateReadHold}) until the old version's loops have ended; then {@link #release()}. If the upgrade fails
 * before, {@link #abandon} drops what was held and stops the new version, so no held coordinator ever opens. With
 * its state elsewhere (a ZooKeeper the topology names) the coordinators start with the other late tasks.
 *
 * <p>Threading: the upgrading thread.
 */
final class CoordinatorHold {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorHold.class);
    /** A new version without coordinators held. */
    private static final CoordinatorHold NONE = new CoordinatorHold(null, Set.of(), 0);

    private final StateReadHold hold;
    private final Set<String> coordinators;
    private final int tasks;

    private CoordinatorHold(StateReadHold hold, Set<String> coordinators, int tasks) {
        this.hold = hold;
        this.coordinators = coordinators;
        this.tasks = tasks;
    }

    /** Begins holding the sessions created from now on when {@code next} has coordinators whose state is ours. */
    static CoordinatorHold begin(TopologySubmitter submitter, TopologySubmitter.Prepared next) {
        if (!TransactionalStateServer.isNeededBy(next.plan().topology())) {
            return NONE;
        }
        Set<String> coordinators = EarlyStart.coordinators(next.plan());
        StateReadHold hold = coordinators.isEmpty() ? null : submitter.holdTransactionalState(next);
        return hold == null ? NONE : new CoordinatorHold(hold, coordinators, EarlyStart.tasks(next.plan(),
            coordinators));
    }

    /** The components that open early and block there until {@link #release()}: the coordinators, or none. */
    Set<String> components() {
        return coordinators;
    }

    /**
     * Waits, for at most {@code waitMs}, until each coordinator task has reached its first held read (its ZooKeeper
     * clients connected and its roots created): one session per task, as storm-client's coordinators open theirs.
     */
    void awaitReached(String topology, long waitMs) throws InterruptedException {
        if (hold != null && !hold.awaitHeldSessions(tasks, waitMs)) {
            LOG.info("Topology {}: {} of the new version's {} coordinator tasks reached their held read after {} ms;"
                + " the old version drains meanwhile", topology, hold.heldSessions(), tasks, waitMs);
        }
    }

    /** The old version's loops have ended: the held reads go on, and later sessions are not held. */
    void release() {
        if (hold != null) {
            hold.release();
        }
    }

    /** The new version failed to start: what was held is dropped, and later sessions are not held. */
    void drop() {
        if (hold != null) {
            hold.abort();
            hold.stopCapturing();
        }
    }

    /** The upgrade failed before {@link #release()}: what was held is dropped, and {@code runtime} is stopped. */
    void abandon(TopologyRuntime runtime) {
        if (hold != null) {
            hold.abort();
        }
        try {
            runtime.stopNow();
        } finally {
            if (hold != null) {
                hold.stopCapturing();
            }
        }
    }
}
