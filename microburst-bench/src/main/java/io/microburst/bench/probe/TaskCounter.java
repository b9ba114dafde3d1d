package io.microburst.bench.probe;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Left padding: keeps the count off the cache line of whatever the allocator placed before it. */
abstract class TaskCounterPadLeft {
    long p01, p02, p03, p04, p05, p06, p07;
}

/** The count itself. */
abstract class TaskCounterValue extends TaskCounterPadLeft {
    long value;
}

/**
 * How many tuples one task has delivered at the last component of a workload.
 *
 * <p>Single writer: only the thread running the task calls {@link #add(long)}. Any thread may call {@link #get()}; the sampler
 * reads it without touching the hot path, so counts of different tasks never share a cache line and never contend.
 */
public final class TaskCounter extends TaskCounterValue {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(TaskCounterValue.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    long p11, p12, p13, p14, p15, p16, p17;

    private final Runnable onFirstTuple;

    TaskCounter(Runnable onFirstTuple) {
        this.onFirstTuple = onFirstTuple;
    }

    /** Adds {@code n} tuples; the first non-zero add also marks the first tuple of the run. Owner thread only. */
    public void add(long n) {
        long before = value;
        if (before == 0 && n > 0) {
            onFirstTuple.run();
        }
        // Opaque store: the sampler sees the new count soon, and the writer pays no fence.
        VALUE.setOpaque(this, before + n);
    }

    /** Adds one tuple. Owner thread only. */
    public void increment() {
        add(1);
    }

    /** The count as last published; any thread. */
    public long get() {
        return (long) VALUE.getOpaque(this);
    }
}
