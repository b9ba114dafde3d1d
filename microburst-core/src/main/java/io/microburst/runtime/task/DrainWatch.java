package io.microburst.runtime.task;

import org.apache.storm.hooks.BaseTaskHook;
import org.apache.storm.hooks.info.EmitInfo;
import org.apache.storm.hooks.info.SpoutAckInfo;
import org.apache.storm.hooks.info.SpoutFailInfo;
import org.apache.storm.spout.CheckpointSpout;

/**
 * An upgrade's watch on one spout task of the version it drains, so that the waiting thread is told when the spout
 * has nothing pending instead of asking. Hooked into the task as a task hook ({@link #attach}) for the drain only (the
 * version stops after it), it runs after every tree of the spout completes (acked, failed, failed back), after the
 * spout's own ack or fail: a one-time action once the spout is settled ({@link #whenIdle}), and, on Storm's
 * checkpoint spout, an action after each checkpoint it completes ({@link #afterCheckpoint}), with which the upgrade
 * starts the next one at once ({@link #nudge}) while stopped spouts still wait for a commit. On the checkpoint spout
 * of the version an upgrade starts it does the same until that version's spouts have their first trees acked, and
 * then leaves ({@link #detach}; see {@code FirstCommit}).
 *
 * <p>Threading: the spout's executor thread only (every call is posted there as mail, or runs in the hook).
 */
public final class DrainWatch extends BaseTaskHook {
    private final SpoutTask task;
    private Runnable whenIdle;
    private Runnable afterCheckpoint;
    /** The action of the last checkpoint tuple the spout emitted (Storm's checkpoint spout only), or null. */
    private Object lastCheckpointAction;
    /** The checkpoint spout's own idle sleep while {@link #awake}, restored by {@link #detach}; else 0. */
    private int sleepMillis;

    public DrainWatch(SpoutTask task) {
        this.task = task;
    }

    /** Hooks this watch into the task's current instance; false, doing nothing, when the task is not up. */
    public boolean attach() {
        if (!task.isUp() || task.context == null) {
            return false;
        }
        task.context.addTaskHook(this);
        return true;
    }

    /**
     * Leaves the task's hooks and restores the spout's sleep ({@link #awake}); not from inside a hook call (the task
     * iterates them), so posted after it.
     */
    public void detach() {
        if (task.context != null) {
            task.context.getHooks().remove(this);
        }
        if (sleepMillis > 0) {
            CheckpointNudge.sleep(task.spout, sleepMillis);
            sleepMillis = 0;
        }
    }

    /**
     * Whether the spout has nothing pending and, if it is Storm's checkpoint spout, its last step was no prepare or
     * rollback (which its next nextTuple would follow with a commit or a recovery step): deactivated now, it leaves
     * its checkpoint committed.
     */
    public boolean settled() {
        return task.getPendingCount() == 0 && !(lastCheckpointAction instanceof Enum<?> action
            && ("PREPARE".equals(action.name()) || "ROLLBACK".equals(action.name())));
    }

    /** Runs {@code action} now if the spout is {@link #settled}, else after the tree that settles it. */
    public void whenIdle(Runnable action) {
        if (settled()) {
            whenIdle = null;
            action.run();
        } else {
            whenIdle = action;
        }
    }

    /** Runs {@code action} after every checkpoint this (checkpoint) spout completes, committed or recovered. */
    public void afterCheckpoint(Runnable action) {
        afterCheckpoint = action;
    }

    /**
     * While this watch lasts, Storm's checkpoint spout does not sleep in a nextTuple that has nothing to start (see
     * {@link CheckpointNudge#sleep}), so a nudge or a question posted to its thread is not held back by it;
     * {@link #detach} restores the sleep. Nothing, for any other spout.
     */
    public void awake() {
        int was = CheckpointNudge.sleep(task.spout, 0);
        if (was > 0) {
            sleepMillis = was;
        }
    }

    /**
     * Makes Storm's checkpoint spout start its next checkpoint at its next nextTuple, unless one is in progress (see
     * {@link CheckpointNudge}); false, doing nothing, for any other spout.
     */
    public boolean nudge() {
        return CheckpointNudge.now(task.spout);
    }

    @Override
    public void emit(EmitInfo info) {
        if (CheckpointSpout.CHECKPOINT_STREAM_ID.equals(info.stream) && info.values.size() > 1) {
            lastCheckpointAction = info.values.get(1);
        }
    }

    @Override
    public void spoutAck(SpoutAckInfo info) {
        treeDone();
    }

    @Override
    public void spoutFail(SpoutFailInfo info) {
        treeDone();
    }

    private void treeDone() {
        if (!settled()) {
            return;
        }
        Runnable action = whenIdle;
        if (action != null) {
            whenIdle = null;
            action.run();
        }
        if (afterCheckpoint != null && lastCheckpointAction != null) {
            afterCheckpoint.run();
        }
    }
}
