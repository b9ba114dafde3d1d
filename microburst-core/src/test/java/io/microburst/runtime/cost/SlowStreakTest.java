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

    @Test
    void aStreakSpentWaitingForACoreMovesNothingWhileABlockingOneStillMoves() {
        // the thread waited for a core 3 ms of the 4 ms its four slow samples took: other work had the cores, the task
        // was not slow
        long[] waits = {0};
        SlowStreak s = new SlowStreak(() -> waits[0]);
        assertEquals(SlowStreak.SLOW, s.sample(0, MS));
        assertEquals(SlowStreak.SLOW, s.sample(10 * MS, MS));
        assertEquals(SlowStreak.SLOW, s.sample(19 * MS, MS));
        waits[0] = 3 * MS;
        assertEquals(SlowStreak.SLOW, s.sample(19 * MS + 1, MS), "descheduled, not slow");
        assertEquals(SlowStreak.SLOW, s.sample(21 * MS, MS), "and a streak starts afresh");
        // the same times in a thread that waited 1 ms for a core: the task blocks or works, and moves
        long[] few = {0};
        SlowStreak blocking = new SlowStreak(() -> few[0]);
        blocking.sample(0, MS);
        blocking.sample(10 * MS, MS);
        blocking.sample(19 * MS, MS);
        few[0] = MS;
        assertEquals(SlowStreak.MOVE, blocking.sample(19 * MS + 1, MS));
        // where the waits are unknown, the times alone decide, as before
        SlowStreak unknown = new SlowStreak(() -> -1);
        unknown.sample(0, MS);
        unknown.sample(10 * MS, MS);
        unknown.sample(19 * MS, MS);
        assertEquals(SlowStreak.MOVE, unknown.sample(19 * MS + 1, MS));
    }

    @Test
    void theWaitForACoreIsSchedstatsSecondField() {
        assertEquals(118119178L, ThreadWaits.parse("256610 118119178 2\n"));
        assertEquals(-1, ThreadWaits.parse(""));
        assertEquals(-1, ThreadWaits.parse("12 x 3"));
    }
}
