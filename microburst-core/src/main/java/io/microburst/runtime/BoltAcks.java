package io.microburst.runtime;

import io.microburst.metrics.TaskStats;
import io.microburst.reliability.TrackedMessageId;
import org.apache.storm.hooks.ITaskHook;
import org.apache.storm.hooks.info.BoltAckInfo;
import org.apache.storm.hooks.info.BoltFailInfo;
import org.apache.storm.tuple.Tuple;

/**
 * The settling side of a bolt's collector: ack, fail and resetTimeout of the tuples given to the bolt, with their
 * statistics and hooks, and the tracked tuples the instance holds (given to execute, neither acked nor failed when it
 * returned). The bolt's collector calls it directly, so an ack costs no more call levels than when the task did it.
 *
 * <p>Threading: the bolt's executor thread, or a thread of the user's own calling the collector (one at a time, as
 * Storm's collector); {@link #held} and the settling of a tuple happen on the executor thread (an ack from another
 * thread is posted there first).
 */
final class BoltAcks {
    private final BoltTask task;
    private final TaskStats stats;
    /** Tracked tuples given to execute and not yet acked or failed: they fail if this instance dies. */
    final HeldTuples held = new HeldTuples();

    BoltAcks(BoltTask task) {
        this.task = task;
        this.stats = task.stats;
    }

    void ack(Tuple input) {
        long processNanos = -1;
        if (input instanceof RoutedTuple rt) {
            release(rt);
            if (rt.getMessageId() instanceof TrackedMessageId id) {
                id.ack(rt.getAckVal());
            }
            if (rt.sampleStartNanos != 0) {
                processNanos = System.nanoTime() - rt.sampleStartNanos;
            }
            int index = rt.inputIndex();
            if (index >= 0 && rt.target() == task) {
                stats.boltAcked(index, processNanos);
            }
        }
        if (!task.hooks.isEmpty()) {
            BoltAckInfo info = new BoltAckInfo(input, task.taskId, processNanos < 0 ? null : processNanos / 1_000_000);
            for (ITaskHook hook : task.hooks) {
                hook.boltAck(info);
            }
        }
    }

    void fail(Tuple input) {
        failTree(input);
        long nanos = -1;
        if (input instanceof RoutedTuple rt) {
            release(rt);
            if (rt.sampleStartNanos != 0) {
                nanos = System.nanoTime() - rt.sampleStartNanos;
            }
            int index = rt.inputIndex();
            if (index >= 0 && rt.target() == task) {
                stats.boltFailed(index);
            }
        }
        if (!task.hooks.isEmpty()) {
            BoltFailInfo info = new BoltFailInfo(input, task.taskId, nanos < 0 ? null : nanos / 1_000_000);
            for (ITaskHook hook : task.hooks) {
                hook.boltFail(info);
            }
        }
    }

    void resetTimeout(Tuple input) {
        if (input.getMessageId() instanceof TrackedMessageId id) {
            id.touch(SharedTimer.stampNanos());
        }
    }

    /** Fails the tree of {@code tuple}, if it belongs to one. */
    static void failTree(Tuple tuple) {
        if (tuple.getMessageId() instanceof TrackedMessageId id) {
            id.fail();
        }
    }

    /**
     * A tracked tuple was acked or failed: one still in execute is marked settled, so it is never listed; a listed one
     * is taken off the list. From a thread of the user's own, the executor does it later, on its own thread.
     */
    private void release(RoutedTuple t) {
        if (t.target() != task || !(t.getMessageId() instanceof TrackedMessageId)) {
            return;
        }
        if (!task.inbox.isOwnThread()) {
            task.inbox.post((Runnable) () -> release(t));
            return;
        }
        if (t.settled) {
            ((TrackedMessageId) t.getMessageId()).markMisused(); // acked or failed twice: a bug Storm exposes
        }
        t.settled = true;
        if (t.held) {
            held.remove(t);
        }
    }
}
