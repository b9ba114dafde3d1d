package io.microburst.runtime.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.metrics.TaskStats;
import org.junit.jupiter.api.Test;

/** A fused task's window estimate, from given executes and samples: no clock, no threads. */
class BalanceWindowTest {
    private static TaskStats stats() {
        return new TaskStats(3, "count", new String[] {"default"}, new String[] {"split"}, new String[] {"default"});
    }

    private static void execute(TaskStats stats, SlowStreak streak, int tuples, long sampleNanos, int sampleEvery) {
        for (int i = 0; i < tuples; i++) {
            boolean sampled = i % sampleEvery == 0;
            stats.executed(0, sampled ? sampleNanos : -1);
            if (sampled) {
                streak.sample(i, sampleNanos);
            }
        }
    }

    @Test
    void aPauseInOneSampleDoesNotCountAsTheTasksCost() {
        TaskStats stats = stats();
        SlowStreak streak = new SlowStreak();
        BalanceWindow w = new BalanceWindow();
        execute(stats, streak, 20_000, 50, 20); // 1000 samples of 50 ns
        stats.executed(0, 5_000_000); // one sample caught a 5 ms GC pause
        streak.sample(0, 5_000_000);
        w.close(stats, streak);
        assertEquals(20_001, w.tuples);
        assertEquals(50, w.meanNanos, "the pause would have made it " + (50 * 1000 + 5_000_000) / 1001);
        assertEquals(50 * 20_001, w.spentNanos);
    }

    @Test
    void eachWindowCountsOnlyItsOwnExecutesAndSamples() {
        TaskStats stats = stats();
        SlowStreak streak = new SlowStreak();
        BalanceWindow w = new BalanceWindow();
        execute(stats, streak, 1_000, 40, 20);
        w.close(stats, streak);
        assertEquals(40, w.meanNanos);
        execute(stats, streak, 3_000, 100, 20);
        w.close(stats, streak);
        assertEquals(3_000, w.tuples);
        assertEquals(100, w.meanNanos);
        assertEquals(300_000, w.spentNanos);
        w.close(stats, streak);
        assertEquals(0, w.tuples);
        assertEquals(-1, w.meanNanos, "nothing executed: unknown");
        assertEquals(-1, w.spentNanos);
    }

    @Test
    void aWindowOfSlowSamplesOnlyCountsAtLeastTheSlowThreshold() {
        TaskStats stats = stats();
        SlowStreak streak = new SlowStreak();
        BalanceWindow w = new BalanceWindow();
        execute(stats, streak, 100, 900_000, 20);
        w.close(stats, streak);
        assertEquals(SlowStreak.SLOW_NANOS, w.meanNanos);
        assertEquals(100 * SlowStreak.SLOW_NANOS, w.spentNanos);
    }

    @Test
    void executesWithoutASampleAreUnknown() {
        TaskStats stats = stats();
        BalanceWindow w = new BalanceWindow();
        stats.executed(0, -1);
        w.close(stats, new SlowStreak());
        assertEquals(1, w.tuples);
        assertEquals(-1, w.meanNanos);
    }
}
