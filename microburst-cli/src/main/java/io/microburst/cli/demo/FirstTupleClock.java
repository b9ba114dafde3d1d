package io.microburst.cli.demo;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Remembers when the demo counted its first word, to measure start-up in-process. JVM-wide: the demo's bolts run
 * in the same process and class loader as the command line. Thread-safe; the first {@link #mark()} wins.
 */
public final class FirstTupleClock {
    private static final long UNSET = 0;
    private static final AtomicLong FIRST_NANOS = new AtomicLong(UNSET);

    private FirstTupleClock() {
    }

    /** Forgets any earlier mark; call before building the cluster. */
    public static void reset() {
        FIRST_NANOS.set(UNSET);
    }

    /** Records {@link System#nanoTime()} if nothing was recorded since the last reset. */
    public static void mark() {
        if (FIRST_NANOS.get() == UNSET) {
            long now = System.nanoTime();
            FIRST_NANOS.compareAndSet(UNSET, now == UNSET ? 1 : now);
        }
    }

    /** The recorded {@link System#nanoTime()}, or 0 when no word has been counted. */
    public static long firstNanos() {
        return FIRST_NANOS.get();
    }
}
