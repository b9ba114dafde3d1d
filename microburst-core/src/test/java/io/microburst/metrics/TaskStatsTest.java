package io.microburst.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TaskStatsTest {
    private static TaskStats twoByTwo() {
        return new TaskStats(3, "bolt", new String[] {"default", "side"}, new String[] {"spout", "other"},
            new String[] {"default", "default"});
    }

    @Test
    void emitsCountOncePerCallAndTransfersOncePerTaskReached() {
        TaskStats s = twoByTwo();
        s.emitted(0, 1);
        s.emitted(0, 1);
        s.emitted(0, 3); // an all grouping over three tasks
        s.emitted(0, 0); // a grouping that chose no task
        s.emitted(1, 1);
        s.emitted(1, 2);
        assertEquals(4, s.emitted(0));
        assertEquals(5, s.transferred(0));
        assertEquals(2, s.emitted(1));
        assertEquals(3, s.transferred(1));
    }

    @Test
    void executesAndAcksCountPerInput() {
        TaskStats s = twoByTwo();
        s.executed(0, -1);
        s.executed(0, 2_000_000);
        s.executed(1, -1);
        s.boltAcked(0, -1);
        s.boltAcked(1, 4_000_000);
        s.boltAcked(1, -1);
        s.boltFailed(1);
        assertEquals(2, s.executed(0));
        assertEquals(1, s.executed(1));
        assertEquals(3, s.executedTotal());
        assertEquals(2.0, s.executeMsAvg(0));
        assertEquals(1, s.acked(0));
        assertEquals(2, s.acked(1));
        assertEquals(4.0, s.processMsAvg(1));
        assertEquals(1, s.failed(1));
    }

    @Test
    void aCopyIsFrozenAndSinceSubtractsIt() {
        TaskStats s = twoByTwo();
        s.emitted(0, 2);
        s.executed(0, -1);
        s.boltAcked(0, -1);
        TaskStats before = s.copy();
        s.emitted(0, 1);
        s.emitted(1, 1);
        s.executed(0, -1);
        s.executed(1, -1);
        s.boltAcked(0, -1);
        assertEquals(1, before.emitted(0));
        assertEquals(2, before.transferred(0));
        assertEquals(1, before.executed(0));
        assertEquals(1, before.acked(0));
        TaskStats delta = s.since(before);
        assertEquals(1, delta.emitted(0));
        assertEquals(1, delta.transferred(0));
        assertEquals(1, delta.emitted(1));
        assertEquals(1, delta.executed(0));
        assertEquals(1, delta.executed(1));
        assertEquals(1, delta.acked(0));
        assertEquals(2, s.since(null).executed(0));
    }
}
