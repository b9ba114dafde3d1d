package io.microburst.runtime.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The first replacement of a task is immediate; over a crash loop (failures with no work in between) the wait starts
 * at the base and doubles, up to its cap.
 */
class SupervisorBackoffTest {
    @Test
    void theFirstReplacementIsImmediateAndTheBackoffDoublesOverACrashLoopUpToItsCap() {
        assertEquals(0, Supervisor.backoff(100, 10_000, 1));
        assertEquals(100, Supervisor.backoff(100, 10_000, 2));
        assertEquals(200, Supervisor.backoff(100, 10_000, 3));
        assertEquals(6_400, Supervisor.backoff(100, 10_000, 8));
        assertEquals(10_000, Supervisor.backoff(100, 10_000, 9));
        assertEquals(10_000, Supervisor.backoff(100, 10_000, 1_000));
        assertEquals(0, Supervisor.backoff(0, 10_000, 5));
    }
}
