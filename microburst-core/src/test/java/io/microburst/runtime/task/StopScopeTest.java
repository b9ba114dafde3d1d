package io.microburst.runtime.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.Test;

/**
 * A thread started from an executor's thread belongs to its stop scope: what it reports is the stop's doing once the
 * executor stops, and not before; threads outside any executor are never affected. The filter drops only the
 * multi-lang loggers' warnings and errors, and only in a scope that is ending.
 */
class StopScopeTest {
    private static final String SHELL_BOLT = "org.apache.storm.task.ShellBolt";

    private interface Check<T> {
        T get() throws Exception;
    }

    /** Runs {@code check} on a fresh thread started from the calling thread (so inheriting its scope). */
    private static <T> T onChildThread(Check<T> check) throws InterruptedException {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread child = new Thread(() -> {
            try {
                result.set(check.get());
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        child.start();
        child.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        return result.get();
    }

    private static LogEvent event(String logger, Level level) {
        return Log4jLogEvent.newBuilder().setLoggerName(logger).setLevel(level)
            .setMessage(new SimpleMessage("Halting process: ShellBolt died.")).build();
    }

    @Test
    void threadsStartedFromAnExecutorEndWithItsStopAndOnlyThen() throws Exception {
        AtomicReference<Object[]> seen = new AtomicReference<>();
        Thread executor = new Thread(() -> {
            try {
                StopScope scope = StopScope.enter();
                // a reader thread started by user code while the executor runs, still running when it stops
                Object[] results = new Object[4];
                Thread[] reader = new Thread[1];
                java.util.concurrent.CountDownLatch stopping = new java.util.concurrent.CountDownLatch(1);
                java.util.concurrent.CountDownLatch checkedBefore = new java.util.concurrent.CountDownLatch(1);
                reader[0] = new Thread(() -> {
                    results[0] = StopScope.endedByStop();
                    results[1] = new StopLogFilter().filter(event(SHELL_BOLT, Level.ERROR));
                    checkedBefore.countDown();
                    try {
                        stopping.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    results[2] = StopScope.endedByStop();
                    results[3] = new StopLogFilter().filter(event(SHELL_BOLT, Level.ERROR));
                });
                reader[0].start();
                checkedBefore.await();
                scope.ending();
                stopping.countDown();
                reader[0].join();
                seen.set(results);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        executor.start();
        executor.join();
        Object[] results = seen.get();
        assertEquals(false, results[0], "a running executor's thread reports as usual");
        assertEquals(Filter.Result.NEUTRAL, results[1], "a crash while running is logged");
        assertEquals(true, results[2], "once the executor stops, its threads' reports are the stop's");
        assertEquals(Filter.Result.DENY, results[3], "ShellBolt's 'died' error from a stopping executor's thread");
        assertFalse(onChildThread(StopScope::endedByStop), "a thread outside any executor");
    }

    @Test
    void theFilterLeavesOtherLoggersAndLevelsAlone() throws Exception {
        Filter.Result[] results = onChildThread(() -> {
            StopScope.enter().ending(); // this thread is the stopping executor's
            StopLogFilter filter = new StopLogFilter();
            return new Filter.Result[] {filter.filter(event("org.apache.storm.spout.ShellSpout", Level.WARN)),
                filter.filter(event(SHELL_BOLT, Level.INFO)), filter.filter(event("com.example.MyBolt", Level.ERROR))};
        });
        assertEquals(Filter.Result.DENY, results[0], "ShellSpout's warning");
        assertEquals(Filter.Result.NEUTRAL, results[1], "ShellBolt's INFO lines");
        assertEquals(Filter.Result.NEUTRAL, results[2], "any other logger");
    }
}
