package io.microburst.cluster.upgrade;

import io.microburst.cluster.TopologySubmitter;
import io.microburst.cluster.TopologyTable;
import io.microburst.runtime.topology.FirstCommit;
import io.microburst.runtime.executor.StartGate;
import io.microburst.runtime.topology.CheckpointWake;
import io.microburst.runtime.topology.Handover;
import io.microburst.runtime.topology.TopologyRuntime;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.storm.generated.AlreadyAliveException;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.SubmitOptions;
import org.apache.storm.spout.CheckpointSpout;
import org.apache.storm.utils.WrappedInvalidTopologyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Upgrades a running topology to a new version with nothing lost. A submit whose configuration sets
 * {@link UpgradeOptions#UPGRADE} and names a running topology is its new version:
 * <ol>
 *   <li>the new version is checked before the old is touched: it plans, its components deserialize with its class
 *   loader, its state fits ({@link UpgradeCheck}); a refusal leaves the old version running untouched and says why
 *   in one line naming the component;</li>
 *   <li>the new version starts beside the old one, unlisted and inactive: only its multi-lang components open or
 *   prepare now (their subprocesses start and answer; {@link EarlyStart}), and so do its Trident coordinators, whose
 *   reads of their state our ZooKeeper holds until the old version's loops ended ({@link CoordinatorHold}); its
 *   other tasks wait until the old version
 *   stopped ({@link StartGate}); meanwhile the old checkpoint spout's idle sleep ends ({@link CheckpointWake});</li>
 *   <li>the old version's spouts stop emitting; its tuples in flight finish and its pending trees complete, for at
 *   most the wait (then what is pending fails back to the spouts, as a normal replay), while Storm's checkpoint spout
 *   goes on, so stateful bolts commit a final checkpoint ({@link Handover});</li>
 *   <li>the old version stops as a kill stops it (queues drained, tasks closed, subprocesses ended), except that
 *   its Trident coordinators' closes go on while the new version starts ({@link TridentCoordinators});</li>
 *   <li>the state is handed over: same provider, same namespaces, moved where a task id changed
 *   ({@link StateCarry}); the new version, made with its own class loader, is listed under the name, its other
 *   tasks start, and it is activated if the old one was. Stateful components open their state only now, after the
 *   old version's last commit, as Storm's checkpoint spout reads its transaction when it opens; its first checkpoint
 *   follows its spouts' first tuples at once ({@link FirstCommit});</li>
 *   <li>the upgrade is recorded ({@link UpgradeHistory}) and logged with its phases ({@link UpgradePhases}). Each
 *   version has an id of its own; the ids of earlier versions keep finding the topology.</li>
 * </ol>
 * If the new version fails to start after all, the old version is started again in its place, from its plan.
 *
 * <p>Threading: any thread, one upgrade at a time per cluster (synchronized); the topology runs on meanwhile.
 */
public final class TopologyUpgrade {
    private static final Logger LOG = LoggerFactory.getLogger(TopologyUpgrade.class);

    private final TopologyTable topologies;
    private final TopologySubmitter submitter;
    private final UpgradeHistory history = new UpgradeHistory();

    public TopologyUpgrade(TopologyTable topologies, TopologySubmitter submitter) {
        this.topologies = topologies;
        this.submitter = submitter;
    }

    public UpgradeHistory history() {
        return history;
    }

    /** Submits as {@link TopologySubmitter#submit}, unless the submit is a running topology's new version ({@link #takes}). */
    public void submit(String name, Map<String, Object> conf, StormTopology topology, SubmitOptions options)
        throws AlreadyAliveException, InvalidTopologyException {
        if (!takes(name, conf, topology)) {
            submitter.submit(name, conf, topology, options);
        }
    }

    /**
     * Upgrades {@code name} when {@code conf} asks for it and a topology of that name is running; returns false,
     * touching nothing, when the submit is an ordinary one.
     *
     * @throws InvalidTopologyException when the new version is refused (the old one runs on) or could not start
     *     (the old one was started again)
     */
    public boolean takes(String name, Map<String, Object> conf, StormTopology topology)
        throws InvalidTopologyException {
        TopologyRuntime running = topologies.listed(name);
        boolean live = running != null && !running.isStopped();
        if (!UpgradeOptions.requested(conf)) {
            if (!live) {
                history.forget(name);
            }
            return false;
        }
        Object expected = conf.get(UpgradeOptions.NAME);
        if (expected != null && !name.equals(expected)) {
            throw UpgradeOptions.refused(String.valueOf(expected), "the new version's main submitted topology '"
                + name + "' instead; give the name it submits");
        }
        if (!live) {
            throw UpgradeOptions.refused(name, "no topology of that name is running; submit it without upgrade");
        }
        try {
            upgrade(running, conf, topology);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw UpgradeOptions.refused(name, "interrupted");
        }
        return true;
    }

    private synchronized void upgrade(TopologyRuntime old, Map<String, Object> conf, StormTopology topology)
        throws InvalidTopologyException, InterruptedException {
        long start = System.nanoTime();
        String name = old.plan().name();
        String status = old.status();
        if (!"ACTIVE".equals(status) && !"INACTIVE".equals(status)) {
            throw UpgradeOptions.refused(name, "it is " + status + "; upgrade an active or inactive topology");
        }
        UpgradeOptions options = UpgradeOptions.from(name, conf);
        TopologySubmitter.Prepared next = submitter.prepare(name, conf, topology);
        UpgradeCheck.StatePlan state = UpgradeCheck.check(old.plan(), old.classLoader(), next.plan(), next.loader(),
            options);
        if (!state.pinnedTasks().isEmpty()) {
            next = submitter.prepare(name, conf, TaskPins.pin(topology, state.pinnedTasks()));
            state = UpgradeCheck.check(old.plan(), old.classLoader(), next.plan(), next.loader(), options);
        }
        boolean wasActive = "ACTIVE".equals(status);
        int waitSecs = options.waitSecs() >= 0 ? options.waitSecs() : old.plan().defaultWaitSecs();
        CoordinatorHold held = CoordinatorHold.begin(submitter, next); // before the new version's first session
        Set<String> earlyComponents = new TreeSet<>(EarlyStart.components(next.plan(), next.loader()));
        earlyComponents.addAll(held.components());
        StartGate gate = new StartGate(earlyComponents, held.components());
        long checked = System.nanoTime();
        // the old checkpoint spout's idle sleep ends while the new version starts, not after the drain began
        CheckpointWake wake = CheckpointWake.begin(old, CheckpointSpout.CHECKPOINT_COMPONENT_ID);
        TopologyRuntime runtime;
        try {
            runtime = startEarly(next, gate, held, waitSecs * 1000L);
        } catch (InvalidTopologyException | InterruptedException | RuntimeException e) {
            wake.undo();
            held.drop(); // the new version did not start: what it asked stays unanswered
            throw e;
        }
        Handover.Result drained;
        long early;
        try {
            wake.await(waitSecs * 1000L);
            early = System.nanoTime();
            drained = Handover.drain(old, Set.of(CheckpointSpout.CHECKPOINT_COMPONENT_ID), waitSecs * 1000L);
        } catch (RuntimeException | InterruptedException e) {
            wake.undo();
            held.abandon(runtime); // the old version was not stopped: it runs on
            throw e;
        }
        long quiet = System.nanoTime();
        // the old Trident coordinators' ZooKeeper clients close while the new version starts
        Runnable oldClosed;
        try {
            oldClosed = old.killLeavingCloses(TridentCoordinators::isCoordinator);
        } catch (RuntimeException e) {
            held.abandon(runtime);
            throw e;
        }
        held.release(); // the old version's loops ended: the new coordinators read what they left
        long oldStopped = System.nanoTime();
        long handedOver;
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(next.loader());
        try {
            StateCarry.apply(next.topoConf(), state.moves(), state.cleared());
            submitter.listInPlaceOf(runtime, old);
            handedOver = System.nanoTime();
            // the watch of its first commit is in place before any spout's first nextTuple
            FirstCommit.watch(runtime, CheckpointSpout.CHECKPOINT_COMPONENT_ID);
            gate.open();
            if (wasActive) {
                runtime.setActive(true);
            }
        } catch (RuntimeException e) {
            runtime.stopNow();
            oldClosed.run();
            restartOld(old, wasActive);
            throw new WrappedInvalidTopologyException("Upgrade of "
                + "topology '" + name + "' failed, the previous version runs again: " + e.getMessage());
        } finally {
            thread.setContextClassLoader(previous);
        }
        long started = System.nanoTime();
        oldClosed.run();
        UpgradePhases phases = new UpgradePhases(start, checked, early, drained.drainedNanos(), quiet, oldStopped,
            handedOver, started);
        long gapMillis = (started - drained.drainedNanos()) / 1_000_000;
        UpgradeHistory.Upgrade done = new UpgradeHistory.Upgrade(history.nextVersion(name), old.plan().stormId(),
            runtime.plan().stormId(), System.currentTimeMillis(), gapMillis, drained.failedBack());
        history.add(name, done);
        LOG.info("Topology {} {} ({})", name, done.describe(), phases.describe());
    }

    /**
     * Starts the new version beside the old one, unlisted and inactive, with only {@code gate}'s early components
     * started, and waits for at most {@code waitMs} until they have (a new version that cannot start at all is refused
     * here, the old one untouched).
     */
    private TopologyRuntime startEarly(TopologySubmitter.Prepared next, StartGate gate, CoordinatorHold held,
                                       long waitMs) throws InvalidTopologyException, InterruptedException {
        TopologyRuntime runtime = submitter.unlisted(next);
        runtime.holdLateTasks(gate);
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(next.loader());
        try {
            submitter.start(runtime, next, false);
        } finally {
            thread.setContextClassLoader(previous);
        }
        boolean ready;
        try {
            ready = gate.earlyComponents().isEmpty() || gate.awaitEarly(runtime.executorCount(), waitMs);
            held.awaitReached(next.plan().name(), waitMs);
        } catch (InterruptedException e) {
            held.abandon(runtime);
            throw e;
        }
        if (!ready) {
            LOG.info("Topology {}: the new version's {} not started after {} ms; the old version drains meanwhile",
                next.plan().name(), gate.earlyComponents(), waitMs);
        }
        return runtime;
    }

    /** The new version did not start: the old one starts again from its plan and class loader, in its status. */
    private void restartOld(TopologyRuntime old, boolean active) throws InvalidTopologyException {
        TopologySubmitter.Prepared again = new TopologySubmitter.Prepared(old.plan(), old.classLoader(),
            old.plan().conf(), false);
        TopologyRuntime listed = topologies.listed(old.plan().name());
        TopologyRuntime runtime = submitter.listInPlaceOf(again, listed != null ? listed : old);
        submitter.start(runtime, again, active);
    }
}
