package io.microburst.runtime.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.DrainWatch;
import io.microburst.runtime.task.FirstTreeWatch;
import io.microburst.runtime.task.SpoutTask;
import io.microburst.runtime.task.TaskRunner;

/**
 * The new version's side of an upgrade of a topology with stateful bolts: its first acks come at once rather than a
 * checkpoint interval or a whole max spout pending of tuples later. A stateful bolt acks its input only once a
 * checkpoint holding it commits, and Storm's checkpoint spout starts one when its interval has passed; so the output
 * gap of an upgrade (the old version's last ack to the new one's first) would hold the new version's open, its state's
 * recovery, and then up to an interval. Here, until every spout's first tree completed:
 * <ul>
 *   <li>each spout has at most {@link #FIRST_MAX_PENDING} trees pending ({@link FirstTreeWatch}), so the first
 *   checkpoint follows a few tuples rather than queueing behind thousands;</li>
 *   <li>a spout's first emit has the checkpoint spout start a checkpoint at once ({@link DrainWatch#nudge}), and
 *   so does each checkpoint completed while a spout that emitted still waits for its first tree (asked on the
 *   checkpoint spout's thread in the same turn, so no idle nextTuple of Storm's checkpoint spout, which sleeps,
 *   comes between); meanwhile the checkpoint spout does not sleep in an idle nextTuple ({@link DrainWatch#awake}), so
 *   a first emit's nudge is not held back either.</li>
 * </ul>
 * At most {@link #WATCHED_CHECKPOINTS} checkpoints are watched: after those, or once every spout heard of its first
 * tree and one more checkpoint (started at once) committed the trees its spouts emitted after the barrier that held
 * their first ones, the bounds are lifted and the hooks leave the tasks. Nothing waits for a clock; each step is a
 * signal.
 *
 * <p>Threading: {@link #watch} on the upgrading thread, before the version is activated (every step is posted to the
 * tasks' executor threads as mail, so it runs before the activation that follows it); the rest on those threads.
 */
public final class FirstCommit {
    /** Trees a spout may have pending until its first completes: a batch's worth, few enough to execute at once. */
    static final int FIRST_MAX_PENDING = 100;
    /** The most checkpoints watched before the watch gives up on spouts whose first tree has not completed. */
    static final int WATCHED_CHECKPOINTS = 32;

    private FirstCommit() {
    }

    /**
     * Watches {@code runtime}'s start, if it has the checkpoint spout component {@code checkpointComponent}; returns
     * whether it has. Call before activating it.
     */
    public static boolean watch(TopologyRuntime runtime, String checkpointComponent) {
        Executor checkpointExecutor = null;
        SpoutTask checkpoint = null;
        List<Executor> executors = new ArrayList<>();
        List<SpoutTask> spouts = new ArrayList<>();
        for (Executor e : runtime.executors()) {
            for (TaskRunner t : e.tasks()) {
                if (t instanceof SpoutTask s && checkpointComponent.equals(s.componentId())) {
                    checkpointExecutor = e;
                    checkpoint = s;
                } else if (t instanceof SpoutTask s) {
                    executors.add(e);
                    spouts.add(s);
                }
            }
        }
        if (checkpoint == null || spouts.isEmpty()) {
            return false;
        }
        Executor cpExecutor = checkpointExecutor;
        DrainWatch cp = new DrainWatch(checkpoint);
        AtomicInteger waiting = new AtomicInteger(); // spouts that emitted and wait for their first tree
        AtomicInteger unheard = new AtomicInteger(spouts.size()); // spouts whose first tree has not completed
        List<FirstTreeWatch> watches = new ArrayList<>();
        for (int i = 0; i < spouts.size(); i++) {
            Executor e = executors.get(i);
            FirstTreeWatch w = new FirstTreeWatch(spouts.get(i), () -> {
                waiting.incrementAndGet();
                cpExecutor.post(cp::nudge);
            }, () -> {
                waiting.decrementAndGet();
                unheard.decrementAndGet();
            }, e::post);
            watches.add(w);
            e.post(() -> w.attach(FIRST_MAX_PENDING));
        }
        int[] watched = {0};
        boolean[] flushed = {false};
        cpExecutor.post(() -> {
            if (!cp.attach()) {
                finish(cp, cpExecutor, watches, executors);
                return;
            }
            cp.awake();
            cp.afterCheckpoint(() -> {
                if (++watched[0] > WATCHED_CHECKPOINTS || flushed[0]) {
                    finish(cp, cpExecutor, watches, executors);
                } else if (unheard.get() == 0) {
                    // the trees emitted after the barrier that held the first ones: one more checkpoint at once
                    flushed[0] = true;
                    cp.nudge();
                } else if (waiting.get() > 0) {
                    cp.nudge();
                }
            });
        });
        return true;
    }

    /** Checkpoint spout's thread: the watch ends; each hook leaves its task on the task's own thread. */
    private static void finish(DrainWatch cp, Executor cpExecutor, List<FirstTreeWatch> watches,
                               List<Executor> executors) {
        cp.afterCheckpoint(null);
        cpExecutor.post(cp::detach);
        for (int i = 0; i < watches.size(); i++) {
            executors.get(i).post(watches.get(i)::finish);
        }
    }
}
