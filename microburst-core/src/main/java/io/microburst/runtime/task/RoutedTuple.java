package io.microburst.runtime.task;

import java.util.List;
import java.util.Map;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.TupleImpl;

/**
 * A tuple on its way to one consumer task. Storm's {@link TupleImpl} to user code; to the runtime it also names its
 * destination and the subscription it arrived on, so delivery and statistics need no lookup.
 *
 * <p>A tuple is its {@link Link}, its values and its message id, and nothing else: source component, task and stream,
 * target and input are read from the link. Most tuples are never allocated (a fused delivery, or one executed from a
 * batch, is scalar-replaced by the JIT), but the JIT must still keep every field of such a tuple at hand in case the
 * compiled code has to fall back to the interpreter; three fields, two of them usually constants, cost far less than
 * eight. {@link TupleImpl}'s own copies of the source fields are left empty, and every method that reads them is
 * overridden here.
 *
 * <p>Threading: made and executed on the consumer's executor thread; a bolt may hand it to threads of its own, which
 * may ack or fail it (the tree ledger is atomic). The held-list fields belong to the bolt's executor thread.
 */
public final class RoutedTuple extends TupleImpl {
    /** What {@link TupleImpl} is built with: it has no schema check, and no method of it reads it again. */
    private static final GeneralTopologyContext UNUSED_CONTEXT = new TupleContext(null, Map.of(), Map.of(), Map.of(),
        Map.of(), "");

    /** Source, stream, target task and the subscription this tuple arrives on. */
    final Link link;
    /** System.nanoTime when execution of a sampled tuple started, 0 when not sampled. Target's thread only. */
    private long sampleStartNanos;
    /**
     * Links in the target task's list of tracked tuples it has received and not yet acked or failed (see
     * {@link HeldTuples}, which moves them through {@link #hold} and {@link #unhold}). Target's thread only.
     */
    private RoutedTuple heldPrev;
    private RoutedTuple heldNext;
    private boolean held;
    /** Acked or failed (target's thread only): a tuple settled within execute is never listed. */
    private boolean settled;

    RoutedTuple(Link link, List<Object> values, MessageId id) {
        super(UNUSED_CONTEXT, values, null, 0, null, id);
        this.link = link;
    }

    /** Execution of this sampled tuple started at {@code nanos} (a {@link System#nanoTime()} reading). Target's thread. */
    void sampleStartsAt(long nanos) {
        sampleStartNanos = nanos;
    }

    /** When execution of this tuple started if it is sampled, else 0. Target's thread. */
    long sampleStartNanos() {
        return sampleStartNanos;
    }

    /** Marks this tuple acked or failed; returns whether it was already (acked or failed twice). Target's thread. */
    boolean settle() {
        boolean before = settled;
        settled = true;
        return before;
    }

    /** Acked or failed already. Target's thread. */
    boolean settled() {
        return settled;
    }

    /** Whether the target's instance holds this tuple (see {@link HeldTuples}). Target's thread. */
    boolean held() {
        return held;
    }

    /** The next tuple in the held list, or null. Target's thread. */
    RoutedTuple nextHeld() {
        return heldNext;
    }

    /** Joins the held list in front of {@code first} (its head until now, or null). Target's thread. */
    void hold(RoutedTuple first) {
        held = true;
        heldPrev = null;
        heldNext = first;
        if (first != null) {
            first.heldPrev = this;
        }
    }

    /** Leaves the held list, joining its neighbours. Target's thread. */
    void unhold() {
        held = false;
        if (heldPrev != null) {
            heldPrev.heldNext = heldNext;
        }
        if (heldNext != null) {
            heldNext.heldPrev = heldPrev;
        }
        heldPrev = null;
        heldNext = null;
    }

    /** The task this tuple is delivered to. */
    BoltTask target() {
        return link.target;
    }

    /** Index of the subscription among the target component's inputs; -1 for system tuples (ticks). */
    int inputIndex() {
        return link.inputIndex;
    }

    @Override
    public String getSourceComponent() {
        return link.sourceComponent;
    }

    @Override
    public int getSourceTask() {
        return link.sourceTask;
    }

    @Override
    public String getSourceStreamId() {
        return link.streamId;
    }

    @Override
    public GlobalStreamId getSourceGlobalStreamId() {
        return new GlobalStreamId(link.sourceComponent, link.streamId);
    }

    @Override
    public GeneralTopologyContext getContext() {
        return link.context;
    }

    @Override
    public Fields getFields() {
        return link.context.getComponentOutputFields(link.sourceComponent, link.streamId);
    }

    @Override
    public String toString() {
        return "source: " + link.sourceComponent + ":" + link.sourceTask + ", stream: " + link.streamId + ", id: "
            + getMessageId() + ", " + getValues() + " PROC_START_TIME(sampled): " + getProcessSampleStartTime()
            + " EXEC_START_TIME(sampled): " + getExecuteSampleStartTime();
    }
}
