package io.microburst.runtime.task;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.apache.storm.spout.CheckpointSpout;

/**
 * Makes Storm's checkpoint spout start its next checkpoint at its next nextTuple instead of once its interval has
 * passed: an upgrade's handover wants the old version's final checkpoint now, not up to an interval later. Storm's
 * {@link CheckpointSpout} starts a checkpoint when none is in progress, the last one committed and the time since the
 * last one started exceeds the interval; it keeps that start time in a private field and offers no call to start
 * one. Setting the start time back to 0 (the value {@code open} gives it, so that the first checkpoint follows
 * recovery at once) takes the same step the spout takes when the interval has passed, so the protocol (prepare,
 * commit, a stateful bolt's acks held until the commit) is unchanged; only its timing is. Where the field is not
 * found (another storm-client), nothing is done and the checkpoint comes at its interval, as before.
 *
 * <p>Threading: {@link #now} on the checkpoint spout's executor thread only (the spout's own fields).
 */
final class CheckpointNudge {
    private static final String START_FIELD = "lastCheckpointTs";
    /** The start-time field of each checkpoint spout class (one per class loader that loads storm-client), or null. */
    private static final ClassValue<VarHandle> START = new ClassValue<>() {
        @Override
        protected VarHandle computeValue(Class<?> type) {
            try {
                return MethodHandles.privateLookupIn(type, MethodHandles.lookup())
                    .findVarHandle(type, START_FIELD, long.class);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
    };

    private CheckpointNudge() {
    }

    /** True if {@code spout} is Storm's checkpoint spout and will start its next checkpoint without waiting. */
    static boolean now(Object spout) {
        if (spout == null || !CheckpointSpout.class.getName().equals(spout.getClass().getName())) {
            return false;
        }
        VarHandle start = START.get(spout.getClass());
        if (start == null) {
            return false;
        }
        start.set(spout, 0L);
        return true;
    }
}
