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
    /** The start-time field of each checkpoint spout class (one per class loader that loads storm-client), or null. */
    private static final ClassValue<VarHandle> START = field("lastCheckpointTs", long.class);
    /** The field holding how long an idle nextTuple sleeps, milliseconds, or null. */
    private static final ClassValue<VarHandle> SLEEP = field("sleepInterval", int.class);

    private CheckpointNudge() {
    }

    private static ClassValue<VarHandle> field(String name, Class<?> fieldType) {
        return new ClassValue<>() {
            @Override
            protected VarHandle computeValue(Class<?> type) {
                try {
                    return MethodHandles.privateLookupIn(type, MethodHandles.lookup()).findVarHandle(type, name,
                        fieldType);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return null;
                }
            }
        };
    }

    private static VarHandle of(ClassValue<VarHandle> field, Object spout) {
        return spout == null || !CheckpointSpout.class.getName().equals(spout.getClass().getName()) ? null
            : field.get(spout.getClass());
    }

    /**
     * Sets how long Storm's checkpoint spout sleeps inside a nextTuple that has nothing to start, in milliseconds;
     * returns what it was, or -1, doing nothing, for any other spout. The sleep is a back-off for Storm's own executor
     * loop: ours idles a spout that emitted nothing by itself and wakes at once for mail, which a sleep inside
     * nextTuple holds back (a nudge, the ack of a step). 0 makes the idle call return at once.
     */
    static int sleep(Object spout, int millis) {
        VarHandle sleep = of(SLEEP, spout);
        if (sleep == null) {
            return -1;
        }
        int was = (int) sleep.get(spout);
        sleep.set(spout, millis);
        return was;
    }

    /** True if {@code spout} is Storm's checkpoint spout and will start its next checkpoint without waiting. */
    static boolean now(Object spout) {
        VarHandle start = of(START, spout);
        if (start == null) {
            return false;
        }
        start.set(spout, 0L);
        return true;
    }
}
