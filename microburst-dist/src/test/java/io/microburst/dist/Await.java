package io.microburst.dist;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * Waits for a condition, checked every 100 ms, until a deadline; then fails saying what was awaited and what was seen
 * last. Threading: the caller's thread.
 */
final class Await {
    private static final long POLL_MILLIS = 100;

    private Await() {
    }

    /**
     * Returns once {@code condition} holds; fails after {@code timeout} with {@code what} and {@code lastSeen} (a
     * description of the state checked last, e.g. a command's output).
     */
    static void until(String what, Duration timeout, Callable<Boolean> condition, Callable<String> lastSeen)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.call()) {
            if (System.nanoTime() - deadline > 0) {
                fail("waited " + timeout.toSeconds() + " s for " + what + "; last seen: " + describe(lastSeen));
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    private static String describe(Callable<String> lastSeen) {
        try {
            return lastSeen.call();
        } catch (Exception e) {
            return "(cannot tell: " + e + ")";
        }
    }
}
