package io.microburst.runtime.executor;

import java.util.List;
import io.microburst.runtime.task.BoltTask;
import io.microburst.runtime.task.Inbox;
import io.microburst.runtime.task.TaskRunner;

/**
 * What an executor needs from the topology above it: moving fused tasks to a thread of their own, which needs the
 * fusion decisions and the set of executors, and where an error that stops the loop goes.
 *
 * <p>Threading: called from executor threads.
 *
 * <p>Public because the topology ({@code runtime.topology}, {@code TopologyHost}) implements it; its methods are called
 * on the executor's thread, between turns.
 */
public interface ExecutorHost {
    /** Whether {@code componentId}'s tasks are fused, through any chain, into {@code headId}'s. */
    boolean chainsInto(String componentId, String headId);

    /**
     * Gives {@code moving} (a fused task and the tasks fused into it) an executor of its own; runs between turns on the
     * thread of {@code from}.
     *
     * @return the new executor, or null when the topology is stopping
     */
    Executor defuse(Executor from, List<TaskRunner> moving, String why);

    /** The rule that decides where a busy fused chain is cut ({@link io.microburst.config.ConfigKeys#PLACEMENT}). */
    io.microburst.plan.PlacementPolicy.Mode placementMode();

    /**
     * Whether a cut at {@code componentId} was undone (see {@link #undoCut}) and its load, {@code rate} tuples a second
     * there now, has not changed materially since ({@link io.microburst.plan.DecisionCheck#loadChanged}).
     */
    boolean cutRefused(String componentId, double rate);

    /**
     * The cut that moved {@code moved} (with the tasks fused after it) off {@code home}'s executor, made at
     * {@code rateBefore} tuples a second there, did not keep its promise: move those tasks back into that executor,
     * fused again, with the same instances (no user lifecycle call, no tuple lost or failed), and refuse that cut until
     * the load changes. Runs on {@code home}'s thread, between turns, and returns once the tasks are back (or the
     * move gave up: the topology stops, or the other executor did not let go of them in time).
     */
    void undoCut(Inbox home, BoltTask moved, double rateBefore, String why);

    /** Which tasks an executor starts before its first turn, and when the others (see {@link StartGate}). */
    StartGate startGate();

    /** An unexpected error stopped an executor's loop; {@code task} may be null. */
    void reportError(TaskRunner task, Throwable error);
}
