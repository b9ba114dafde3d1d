package io.microburst.bench.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The held rate owes what the elapsed time says, a bounded number per call, and restarts after a long stall. */
class RatePacerTest {
    private static final long MS = 1_000_000L;

    @Test
    void owesTheRateTimesTheElapsedTime() {
        RatePacer p = new RatePacer(37_000, 1000);
        assertEquals(0, p.due(5 * MS)); // the schedule starts at the first call
        assertEquals(37, p.due(6 * MS));
        assertEquals(0, p.due(6 * MS));
        assertEquals(18, p.due(6 * MS + MS / 2)); // 55.5 owed in all, 37 given
        assertEquals(370 - 55, p.due(15 * MS));
    }

    @Test
    void aCallGetsAtMostItsShareAndTheRestLater() {
        RatePacer p = new RatePacer(220_000, 100);
        p.due(0);
        assertEquals(100, p.due(MS));
        assertEquals(100, p.due(MS));
        assertEquals(20, p.due(MS));
        assertEquals(0, p.due(MS));
    }

    @Test
    void aLongStallRestartsTheScheduleInsteadOfFlooding() {
        RatePacer p = new RatePacer(10_000, 100);
        p.due(0);
        assertEquals(0, p.due(RatePacer.MAX_BACKLOG_NANOS + 2 * MS));
        assertEquals(10, p.due(RatePacer.MAX_BACKLOG_NANOS + 3 * MS));
    }

    @Test
    void refusesANonPositiveRate() {
        assertThrows(IllegalArgumentException.class, () -> new RatePacer(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new RatePacer(1, 0));
    }
}
