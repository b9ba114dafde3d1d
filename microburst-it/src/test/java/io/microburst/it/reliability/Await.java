package io.microburst.it.reliability;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** Bounded waits on a condition. A wait that runs out fails the test with what it was waiting for. */
final class Await {
    private static final long POLL_MILLIS = 10;

    private Await() {
    }

    static void until(String what, Duration limit, BooleanSupplier condition) throws InterruptedException {
        until(what, limit, condition, () -> "");
    }

    static void until(String what, Duration limit, BooleanSupplier condition, Supplier<String> state)
            throws InterruptedException {
        if (!reached(limit, condition)) {
            throw new AssertionError("timed out after " + limit.toSeconds() + " s waiting for " + what + " " + state.get());
        }
    }

    /**
     * Waits for a condition that a counter moves towards, failing as soon as the counter stops moving for
     * stallLimit (so a lost ack fails the test in seconds, not at the overall limit).
     */
    static void untilWhileProgressing(String what, Duration limit, Duration stallLimit, LongSupplier progress,
                                      BooleanSupplier condition, Supplier<String> state) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        long lastProgress = progress.getAsLong();
        long lastMoved = System.nanoTime();
        while (!condition.getAsBoolean()) {
            long now = System.nanoTime();
            long current = progress.getAsLong();
            if (current != lastProgress) {
                lastProgress = current;
                lastMoved = now;
            } else if (now - lastMoved > stallLimit.toNanos()) {
                throw new AssertionError("no progress for " + stallLimit.toSeconds() + " s waiting for " + what + " "
                        + state.get());
            }
            if (now - deadline > 0) {
                throw new AssertionError("timed out after " + limit.toSeconds() + " s waiting for " + what + " "
                        + state.get());
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /** True if the condition became true within the limit. */
    static boolean reached(Duration limit, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(POLL_MILLIS);
        }
        return true;
    }
}
