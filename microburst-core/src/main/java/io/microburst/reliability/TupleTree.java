package io.microburst.reliability;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The ledger entry of one spout tuple emitted with a message id: the XOR of the ids of every edge of its tuple tree
 * that is not yet acked (Storm @Twitter, section 2.3), kept in memory instead of in an acker task.
 *
 * <p>Any thread may XOR into it or fail it, lock-free. Exactly one transition out of {@link #PENDING} happens; the
 * thread that makes it hands the tree to its owner (the spout task), whose own thread then calls ack or fail.
 * The list fields at the bottom belong to the owner's thread alone.
 */
public final class TupleTree {
    public static final int PENDING = 0;
    public static final int ACKED = 1;
    public static final int FAILED = 2;
    /** Timed out, or abandoned because its spout instance was replaced: late acks and fails are ignored. */
    public static final int EXPIRED = 3;

    private static final VarHandle ACK_VAL;
    private static final VarHandle STATE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ACK_VAL = lookup.findVarHandle(TupleTree.class, "ackVal", long.class);
            STATE = lookup.findVarHandle(TupleTree.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long rootId;
    private final Object messageId;
    private final String streamId;
    private final int streamIndex;
    private final long emitNanos;
    private final Owner owner;
    @SuppressWarnings("unused") // accessed through ACK_VAL
    private volatile long ackVal;
    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;
    /**
     * Set when a tuple of this tree was acked or failed after it had already been acked or failed (a bug of the user's
     * bolt). Read by the owner when it reports a completed tree (see {@link #misused()}).
     */
    private volatile boolean misused;
    /** Last resetTimeout or queue stamp, on Storm's clock ({@code Time.nanoTime()}); 0 when never stamped. */
    private volatile long touchedNanos;

    // Owner-thread only: membership in the owner's pending list.
    TupleTree prev;
    TupleTree next;
    int bucket = -1;

    /** Receives a tree once it leaves {@link #PENDING} through an ack or a fail (never through expiry). */
    public interface Owner {
        /** Any thread: the tree left {@link #PENDING}; the owner hands it to its own thread. */
        void treeCompleted(TupleTree tree);

        /**
         * The owner's own thread, after {@link #treeCompleted} handed the tree over: reports it (the spout's ack or
         * fail). Called once per completed tree. An owner that reports a tree within {@link #treeCompleted} needs
         * nothing here.
         */
        default void finishTree(TupleTree tree) {
        }
    }

    /**
     * @param initialAckVal XOR of the ids of the edges to the first tuples, all set before any of them is delivered
     */
    public TupleTree(long rootId, Object messageId, String streamId, int streamIndex, long emitNanos, long initialAckVal,
                     Owner owner) {
        this.rootId = rootId;
        this.messageId = messageId;
        this.streamId = streamId;
        this.streamIndex = streamIndex;
        this.emitNanos = emitNanos;
        this.owner = owner;
        // a plain store: a volatile one is a full fence on x86, for every tree; the tree reaches other threads only
        // inside tuples handed over through the executors' queues, which publish it safely
        ACK_VAL.set(this, initialAckVal);
    }

    /** XORs edge ids in: an ack of a tuple of this tree, carrying the ids of the edges its processing created. */
    public void xor(long edges) {
        long before = (long) ACK_VAL.getAndBitwiseXor(this, edges);
        if ((before ^ edges) == 0) {
            finish(ACKED);
        }
    }

    /**
     * Fails the whole tree (a bolt failed one of its tuples, or its task died); true if this call failed it (it was
     * pending), so the caller may record why.
     */
    public boolean fail() {
        if (STATE.compareAndSet(this, PENDING, FAILED)) {
            owner.treeCompleted(this);
            return true;
        }
        return false;
    }

    /** Called when the initial ack value is zero: the tree had no edges and is complete at once. */
    public void completeIfEmpty() {
        if ((long) ACK_VAL.getVolatile(this) == 0) {
            finish(ACKED);
        }
    }

    /** Moves to EXPIRED if still pending; true if it did (the caller then reports the failure itself). */
    public boolean expire() {
        return STATE.compareAndSet(this, PENDING, EXPIRED);
    }

    private void finish(int outcome) {
        if (STATE.compareAndSet(this, PENDING, outcome)) {
            owner.treeCompleted(this);
        }
    }

    /** A tuple of this tree was acked or failed a second time. */
    public void markMisused() {
        misused = true;
    }

    /**
     * True when, after this tree reached zero, a tuple of it was acked or failed a second time. In Storm the acker
     * XORs that second ack into the tree's value (which then never returns to zero, and the tree times out) or fails
     * the tree, unless the tree happened to complete in between; here the tree's children may have been acked in
     * the same call stack (fusion), so the owner fails such a tree when it comes to report it, as Storm nearly always
     * does.
     */
    public boolean misused() {
        return misused;
    }

    public int state() {
        return (int) STATE.getVolatile(this);
    }

    public void touch(long nowNanos) {
        touchedNanos = nowNanos;
    }

    public long touchedNanos() {
        return touchedNanos;
    }

    public Owner owner() {
        return owner;
    }

    public long rootId() {
        return rootId;
    }

    public Object messageId() {
        return messageId;
    }

    public String streamId() {
        return streamId;
    }

    /** Index of the stream among the spout's output streams. */
    public int streamIndex() {
        return streamIndex;
    }

    /** System.nanoTime at emit for a tree sampled for complete latency; 0 for the others. */
    public long emitNanos() {
        return emitNanos;
    }

    @Override
    public String toString() {
        return "TupleTree[root=" + rootId + ", msgId=" + messageId + ", state=" + state() + "]";
    }
}
