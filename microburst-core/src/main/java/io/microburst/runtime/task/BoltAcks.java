package io.microburst.runtime.task;

import io.microburst.metrics.TaskStats;
import io.microburst.reliability.TrackedMessageId;
import io.microburst.runtime.clock.SharedTimer;
import java.util.Map;
import org.apache.storm.hooks.ITaskHook;
import org.apache.storm.hooks.info.BoltAckInfo;
import org.apache.storm.hooks.info.BoltFailInfo;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.apache.storm.tuple.Values;

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
    final HeldTuples held;

    BoltAcks(BoltTask task) {
        this.task = task;
        this.stats = task.stats;
        this.held = new HeldTuples(task);
    }

    void ack(Tuple input) {
        long processNanos = -1;
        if (input instanceof RoutedTuple rt) {
            release(rt);
            if (rt.getMessageId() instanceof TrackedMessageId id) {
                id.ack(rt.getAckVal());
            }
            if (rt.sampleStartNanos() != 0) {
                processNanos = System.nanoTime() - rt.sampleStartNanos();
            }
            int index = rt.inputIndex();
            if (index >= 0 && rt.target() == task) {
                stats.boltAcked(index, processNanos);
            }
        } else if (input instanceof TupleImpl copy && copy.getMessageId() instanceof TrackedMessageId id) {
            id.ack(copy.getAckVal()); // a copy of a tuple the task was given (see AnchoredIds), as Storm acks it
        }
        if (!task.hooks.isEmpty()) {
            ackHooks(input, processNanos);
        }
    }

    /**
     * As Storm's ack: the emit hooks of its messages to the acker (one per root), then the boltAck hooks; none when the
     * topology has no ackers, as Storm's collector returns at once then.
     */
    private void ackHooks(Tuple input, long processNanos) {
        if (!task.acking) {
            return;
        }
        long ackVal = input instanceof TupleImpl t ? t.getAckVal() : 0;
        for (Map.Entry<Long, Long> root : roots(input).entrySet()) {
            task.ackerEmitHooks("__ack_ack", new Values(root.getKey(), root.getValue() ^ ackVal));
        }
        BoltAckInfo info = new BoltAckInfo(input, task.taskId, processNanos < 0 ? null : processNanos / 1_000_000);
        for (ITaskHook hook : task.hooks) {
            hook.boltAck(info);
        }
    }

    void fail(Tuple input) {
        TreeLog.failedBy(input.getMessageId(), task);
        long nanos = -1;
        if (input instanceof RoutedTuple rt) {
            release(rt);
            if (rt.sampleStartNanos() != 0) {
                nanos = System.nanoTime() - rt.sampleStartNanos();
            }
            int index = rt.inputIndex();
            if (index >= 0 && rt.target() == task) {
                stats.boltFailed(index);
            }
        }
        if (!task.hooks.isEmpty()) {
            failHooks(input, nanos);
        }
    }

    /**
     * As Storm's fail: the emit hooks of its messages to the acker (one per root), then the boltFail hooks; none when
     * the topology has no ackers, as Storm's collector returns at once then.
     */
    private void failHooks(Tuple input, long nanos) {
        if (!task.acking) {
            return;
        }
        for (Long root : roots(input).keySet()) {
            task.ackerEmitHooks("__ack_fail", new Values(root));
        }
        BoltFailInfo info = new BoltFailInfo(input, task.taskId, nanos < 0 ? null : nanos / 1_000_000);
        for (ITaskHook hook : task.hooks) {
            hook.boltFail(info);
        }
    }

    void resetTimeout(Tuple input) {
        if (input.getMessageId() instanceof TrackedMessageId id) {
            id.touch(SharedTimer.stampNanos());
        }
        if (!task.hooks.isEmpty()) {
            for (Long root : roots(input).keySet()) {
                task.ackerEmitHooks("__ack_reset_timeout", new Values(root));
            }
        }
    }

    /** The roots of the trees {@code input} belongs to, each with its edge id (Storm's anchors-to-ids). */
    private static Map<Long, Long> roots(Tuple input) {
        MessageId id = input.getMessageId();
        return id == null ? Map.of() : id.getAnchorsToIds();
    }

    /** Fails the tree of {@code tuple}, if it belongs to one: its task was down and not replaced before a stop. */
    static void failTree(RoutedTuple tuple) {
        TreeLog.crashed(tuple.getMessageId(), tuple.target());
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
        if (t.settle()) {
            ((TrackedMessageId) t.getMessageId()).markMisused(); // acked or failed twice: a bug Storm exposes
        }
        if (t.held()) {
            held.remove(t);
        }
    }
}
