package io.microburst.runtime.task;

import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import io.microburst.reliability.TrackedMessageId;
import io.microburst.reliability.TupleTree;
import org.apache.storm.tuple.MessageId;

/**
 * Where the tuples of pending tuple trees are, read on demand (a view asked for, or trees that timed out), never
 * tracked per tuple: a walk over one executor's queues and its bolts' held tuples, and over a spout's pending trees.
 *
 * <p>Threading: {@link #ofExecutor} and {@link #pending} on the executor's own thread (its queues' consumer side and
 * its spouts' pending lists are confined to it); {@link #ofBusyInbox} on any thread, reading only what the queue's
 * contract lets another thread read. Public for the topology layer, which asks every executor.
 */
public final class TupleScan {
    /** Waiting in a queue (an inbox, the rest of the batch being executed, an overflow list) for the task. */
    public static final int QUEUED = 0;
    /** Executed by the task's bolt and neither acked nor failed yet (see {@link HeldTuples}). */
    public static final int HELD = 1;
    /** In the hands of a task whose thread is inside a call (it did not answer), being executed or next to it. */
    public static final int EXECUTING = 2;

    /** Receives each tree of each tracked tuple found, with the task that holds the tuple and how. */
    public interface Sink {
        void found(TupleTree tree, TaskRunner holder, int how);
    }

    /** Receives a spout's pending trees, newest first, with their age ({@code -1}: not known) and whether it is exact. */
    public interface PendingSink {
        void pending(TupleTree tree, long ageNanos, boolean exact);
    }

    private TupleScan() {
    }

    /**
     * The executor's own thread, between turns: the tuples waiting in its inbox (queued batches, the rest of the
     * current one, tuples from user threads, its local queue), in its overflow lists, and held by its bolts. Costs a
     * visit per tuple waiting or held there; allocates nothing but what the sink does.
     */
    public static void ofExecutor(Inbox inbox, Outbox outbox, TaskRunner[] tasks, Sink sink) {
        for (Batch b : inbox.batches) {
            batch(b, 0, sink);
        }
        if (inbox.current != null) {
            batch(inbox.current, inbox.position, sink);
        }
        for (RoutedTuple t : inbox.foreign) {
            tuple(t, QUEUED, sink);
        }
        for (RoutedTuple t : inbox.local) {
            tuple(t, QUEUED, sink);
        }
        for (ArrayDeque<Batch> q : outbox.overflow) {
            if (q != null) {
                for (Batch b : q) {
                    batch(b, 0, sink);
                }
            }
        }
        for (TaskRunner t : tasks) {
            if (t instanceof BoltTask bolt) {
                bolt.acks.held.forEach(rt -> tuple(rt, HELD, sink));
            }
        }
    }

    /**
     * Any thread, for an executor that did not answer because its thread is inside a user call: the batches waiting in
     * its inbox and the tuples from user threads, read through JCTools' iterators, which any thread may use. Nobody
     * writes a batch while it waits in the queue; one the consumer takes during the read may go back to its producer
     * and be refilled, so if the consumer took any (its index moved, read after a fence as a stamped lock validates),
     * nothing is reported and this returns false. Tuples from user threads are immutable once queued.
     */
    public static boolean ofBusyInbox(Inbox inbox, Sink sink) {
        long before = inbox.batches.currentConsumerIndex();
        List<Object[]> seen = new ArrayList<>();
        Sink buffer = (tree, holder, how) -> seen.add(new Object[] {tree, holder});
        for (Batch b : inbox.batches) {
            batch(b, 0, buffer);
        }
        VarHandle.acquireFence(); // the reads above happen before the index is read again
        if (inbox.batches.currentConsumerIndex() != before) {
            return false;
        }
        for (Object[] f : seen) {
            sink.found((TupleTree) f[0], (TaskRunner) f[1], QUEUED);
        }
        for (RoutedTuple t : inbox.foreign) {
            tuple(t, QUEUED, sink);
        }
        return true;
    }

    /**
     * The spout's thread: its pending trees, newest first, each with its age. A tree's emit time is known for the
     * trees sampled for complete latency (one in {@code topology.stats.sample.rate}'s period, whose emit time the
     * spout records anyway); the others, listed in emit order, take the age of the nearest older sampled tree (at
     * most that old), or failing that of the nearest newer one (at least that old). Nothing is stamped per tree.
     */
    public static void pending(SpoutTask spout, long nowNanos, PendingSink sink) {
        List<TupleTree> trees = new ArrayList<>(spout.pending.size());
        spout.pending.forEach(trees::add);
        int n = trees.size();
        long[] ages = new long[n];
        long older = -1;
        for (int i = n - 1; i >= 0; i--) {
            long emit = trees.get(i).emitNanos();
            if (emit != 0) {
                older = Math.max(0, nowNanos - emit);
            }
            ages[i] = older;
        }
        long newer = -1;
        for (int i = 0; i < n; i++) {
            TupleTree t = trees.get(i);
            long emit = t.emitNanos();
            if (emit != 0) {
                newer = Math.max(0, nowNanos - emit);
            }
            sink.pending(t, ages[i] >= 0 ? ages[i] : newer, emit != 0);
        }
    }

    /** The tracked tuples of a batch from index {@code from} on (a null link is the one before's). */
    private static void batch(Batch b, int from, Sink sink) {
        Link link = null;
        int n = Math.min(b.size, b.ids.length);
        for (int k = 0; k < n; k++) {
            Link l = b.links[k];
            if (l != null) {
                link = l;
            }
            if (k >= from && link != null) {
                trees(b.ids[k], link.target, QUEUED, sink);
            }
        }
    }

    private static void tuple(RoutedTuple t, int how, Sink sink) {
        if (t != null) {
            trees(t.getMessageId(), t.target(), how, sink);
        }
    }

    private static void trees(MessageId id, TaskRunner holder, int how, Sink sink) {
        if (id instanceof TrackedMessageId tracked) {
            for (int i = 0, n = tracked.treeCount(); i < n; i++) {
                sink.found(tracked.tree(i), holder, how);
            }
        }
    }
}
