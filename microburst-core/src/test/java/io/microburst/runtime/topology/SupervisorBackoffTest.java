package io.microburst.runtime.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The wait before a restart doubles over a crash loop (failures with no work in between), up to its cap. */
class SupervisorBackoffTest {
    @Test
    void theRestartBackoffDoublesOverACrashLoopUpToItsCap() {
        assertEquals(100, Supervisor.backoff(100, 10_000, 1));
        assertEquals(200, Supervisor.backoff(100, 10_000, 2));
        assertEquals(6_400, Supervisor.backoff(100, 10_000, 7));
        assertEquals(10_000, Supervisor.backoff(100, 10_000, 8));
        assertEquals(10_000, Supervisor.backoff(100, 10_000, 1_000));
        assertEquals(0, Supervisor.backoff(0, 10_000, 5));
    }
}
