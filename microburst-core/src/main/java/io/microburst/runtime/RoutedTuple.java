package io.microburst.runtime;

import java.util.List;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.TupleImpl;

/**
 * A tuple on its way to one consumer task. Storm's {@link TupleImpl} to user code; to the runtime it also names its
 * destination and the subscription it arrived on, so delivery and statistics need no lookup.
 */
public final class RoutedTuple extends TupleImpl {
    final BoltTask target;
    /** Index of the subscription among the target component's inputs; -1 for system tuples (ticks). */
    final int inputIndex;
    /** System.nanoTime when execution of a sampled tuple started, 0 when not sampled. Target's thread only. */
    long sampleStartNanos;
    /** Links in the target task's list of tracked tuples it has received and not yet acked or failed. */
    RoutedTuple heldPrev;
    RoutedTuple heldNext;
    boolean held;
    /** Acked or failed (target's thread only): a tuple settled within execute is never listed. */
    boolean settled;

    RoutedTuple(GeneralTopologyContext context, List<Object> values, String sourceComponent, int sourceTask,
                String streamId, MessageId id, BoltTask target, int inputIndex) {
        super(context, values, sourceComponent, sourceTask, streamId, id);
        this.target = target;
        this.inputIndex = inputIndex;
    }
}
