package io.microburst.runtime.task;

import java.util.function.Consumer;
import org.apache.storm.hooks.BaseTaskHook;
import org.apache.storm.hooks.info.EmitInfo;
import org.apache.storm.hooks.info.SpoutAckInfo;
import org.apache.storm.hooks.info.SpoutFailInfo;

/**
 * An upgrade's watch on one spout task of the version it starts, until the spout's first tree completes: while a
 * stateful bolt acks only at a commit, the new version's first acks wait for its first checkpoint holding a tuple.
 * Hooked into the task ({@link #attach}), it bounds the spout's pending trees to a few until then, so that the first
 * checkpoint is not queued behind a whole max spout pending of tuples; tells {@code firstEmit} at the spout's first
 * emit (the upgrade has the checkpoint spout start a checkpoint at once); and at its first ack or fail lifts the
 * bound, tells {@code firstDone} and leaves the task's hooks (posted through {@code post}, after the hook loop), so
 * the spout's emits pay for no hook afterwards. A restarted instance drops the hook and the bound with its context.
 *
 * <p>Threading: the spout's executor thread only (attached by mail posted there, then called as a hook).
 */
public final class FirstTreeWatch extends BaseTaskHook {
    private final SpoutTask task;
    private final Runnable firstEmit;
    private final Runnable firstDone;
    private final Consumer<Runnable> post;
    private boolean emitted;
    private boolean done;

    /**
     * @param post posts a command to the spout's executor thread, run after the current one
     */
    public FirstTreeWatch(SpoutTask task, Runnable firstEmit, Runnable firstDone, Consumer<Runnable> post) {
        this.task = task;
        this.firstEmit = firstEmit;
        this.firstDone = firstDone;
        this.post = post;
    }

    /** Hooks in and bounds pending trees to {@code maxPending}; false, doing nothing, when the task is not up. */
    public boolean attach(int maxPending) {
        if (!task.isUp() || task.context == null) {
            return false;
        }
        task.context.addTaskHook(this);
        task.capPending(maxPending);
        return true;
    }

    @Override
    public void emit(EmitInfo info) {
        if (!emitted) {
            emitted = true;
            firstEmit.run();
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
        if (!done) {
            firstDone.run();
        }
        finish();
    }

    /**
     * Lifts the bound and leaves the task's hooks now, whether or not a tree completed: the upgrade stopped waiting
     * for this spout's first.
     */
    public void finish() {
        if (done) {
            return;
        }
        done = true;
        task.capPending(0);
        post.accept(() -> {
            if (task.context != null) {
                task.context.getHooks().remove(this); // the list the task iterates (see TaskRunner#newInstance)
            }
        });
    }
}
