package io.microburst.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatsHistoryTest {
    private static TaskStats task() {
        return new TaskStats(3, "bolt", new String[] {"default"}, new String[] {"spout"}, new String[] {"default"});
    }

    @Test
    void windowCountsAreTheDifferenceSinceTheWindowStart() {
        StatsHistory history = new StatsHistory();
        TaskStats stats = task();
        long t = 1_000_000;
        for (int i = 0; i < 40; i++) { // 40 records 30 s apart: 20 minutes, 10 executes per 30 s
            history.record(t + i * 30_000L, List.of(stats));
            for (int k = 0; k < 10; k++) {
                stats.executed(0, -1);
            }
        }
        long now = t + 39 * 30_000L + 1;
        TaskStats base = history.baseline(3, 0, now);
        // the window starts 1 ms after the copy taken at period 19: it holds periods 19 to 39, 21 periods of 10
        assertEquals(210, stats.since(base).executed(0));
        assertNull(history.baseline(3, 1, now), "younger than 3 h: the window is all-time");
        assertEquals(400, stats.since(history.baseline(3, 1, now)).executed(0));
    }

    @Test
    void clearForgetsTheBaseline() {
        StatsHistory history = new StatsHistory();
        history.record(0, List.of(task()));
        history.clear();
        assertNull(history.baseline(3, 0, 10_000_000));
    }
}
