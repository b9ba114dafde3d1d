package io.microburst.runtime.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** When a fused task's sampled executes make it move, from given times: no clock, no threads. */
class SlowStreakTest {
    private static final long MS = 1_000_000;

    @Test
    void aShortRunOfSlowExecutesDoesNotMoveAFusedBolt() {
        // six executes of 0.3 ms in a row: slow enough to count, over far less time than a move needs
        SlowStreak s = new SlowStreak();
        long t = 0;
        for (int i = 0; i < 6; i++) {
            assertEquals(SlowStreak.SLOW, s.sample(t, 300_000), "execute " + i);
            t += 300_000;
        }
        assertEquals(SlowStreak.FAST, s.sample(t, 1_000));
        // a later streak starts again from nothing
        assertEquals(SlowStreak.SLOW, s.sample(100 * MS, 300_000));
        assertEquals(SlowStreak.SLOW, s.sample(130 * MS, 300_000));
    }

    @Test
    void aStreakOfFourOrMoreSlowExecutesOverTwentyMillisecondsMovesIt() {
        SlowStreak s = new SlowStreak();
        assertEquals(SlowStreak.SLOW, s.sample(0, MS));
        assertEquals(SlowStreak.SLOW, s.sample(10 * MS, MS));
        assertEquals(SlowStreak.SLOW, s.sample(19 * MS, MS), "three samples are not enough, however long");
        assertEquals(SlowStreak.MOVE, s.sample(19 * MS + 1, MS));
    }

    @Test
    void fourSlowSamplesInUnderTwentyMillisecondsWaitForMore() {
        SlowStreak s = new SlowStreak();
        for (int i = 0; i < 4; i++) {
            assertEquals(SlowStreak.SLOW, s.sample(i * MS, MS));
        }
        assertEquals(SlowStreak.SLOW, s.sample(18 * MS, MS - 1));
        assertEquals(SlowStreak.MOVE, s.sample(19 * MS, MS));
    }

    @Test
    void oneFastExecuteEndsTheStreak() {
        SlowStreak s = new SlowStreak();
        for (int i = 0; i < 3; i++) {
            s.sample(i * 10 * MS, MS);
        }
        assertEquals(SlowStreak.FAST, s.sample(30 * MS, SlowStreak.SLOW_NANOS - 1));
        assertEquals(SlowStreak.SLOW, s.sample(40 * MS, MS));
    }
}
