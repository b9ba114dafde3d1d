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
 * spout's own ack or fail: a one-time action once the spout is settled ({@link #settled}), and, while asked to
 * ({@link #checkpointsBackToBack}), makes Storm's checkpoint spout start its next checkpoint at once
 * ({@link CheckpointNudge}), so a stateful bolt's held acks come at the next commit instead of an interval later.
 *
 * <p>Threading: every method but {@link #checkpointsBackToBack} on the spout's executor thread (posted as mail); that
 * one from any thread.
 */
public final class DrainWatch extends BaseTaskHook {
    private final SpoutTask task;
    private Runnable whenIdle;
    private volatile boolean nudging;
    /** The action of the last checkpoint tuple the spout emitted (Storm's checkpoint spout only), or null. */
    private Object lastCheckpointAction;

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

    /**
     * While {@code on}, a checkpoint spout starts its next checkpoint as soon as the last one is done: now, and after
     * every checkpoint tree. Any thread; a spout of any other kind is left alone.
     */
    public void checkpointsBackToBack(boolean on) {
        nudging = on;
    }

    /** Makes a checkpoint spout start its next checkpoint at its next nextTuple (see {@link CheckpointNudge}). */
    public boolean nudge() {
        return nudging && CheckpointNudge.now(task.spout);
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
        nudge();
        Runnable action = whenIdle;
        if (action != null && settled()) {
            whenIdle = null;
            action.run();
        }
    }
}
