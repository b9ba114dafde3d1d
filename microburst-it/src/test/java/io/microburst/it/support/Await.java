package io.microburst.it.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Bounded polling instead of fixed sleeps: a test waits exactly as long as its condition needs, never longer than its limit. */
public final class Await {
    /** The default limit for any condition a healthy runtime meets within a second or two. */
    public static final Duration DEFAULT_LIMIT = Duration.ofSeconds(30);
    private static final long POLL_MILLIS = 20;

    private Await() {
    }

    public static void until(String what, BooleanSupplier condition) {
        until(what, condition, DEFAULT_LIMIT);
    }

    /** Polls until the condition holds; fails with a message naming what was awaited when the limit passes. */
    public static void until(String what, BooleanSupplier condition, Duration limit) {
        until(what, condition, limit, () -> "");
    }

    /** As {@link #until(String, BooleanSupplier, Duration)}, appending the state described by {@code state} to the failure message. */
    public static void until(String what, BooleanSupplier condition, Duration limit, Supplier<String> state) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + limit.toMillis() + " ms waiting for " + what + describe(state));
            }
            pause(POLL_MILLIS);
        }
    }

    /**
     * Watches a condition that must stay false for the whole period, e.g. "no tuple arrives while the topology is inactive".
     * Returns normally when the period passes; fails at once when the condition becomes true.
     */
    public static void never(String what, BooleanSupplier condition, Duration period) {
        long deadline = System.nanoTime() + period.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (condition.getAsBoolean()) {
                throw new AssertionError("unexpectedly observed " + what);
            }
            pause(POLL_MILLIS);
        }
        if (condition.getAsBoolean()) {
            throw new AssertionError("unexpectedly observed " + what);
        }
    }

    private static String describe(Supplier<String> state) {
        String s = state.get();
        return s == null || s.isEmpty() ? "" : "; state: " + s;
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting", e);
        }
    }
}
