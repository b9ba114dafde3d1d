package io.microburst.runtime.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.plan.PlacementPolicy;
import io.microburst.plan.PlacementPolicy.Point;
import io.microburst.plan.PlacementPolicy.Window;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Placement windows added up, from injected windows. */
class WindowSumTest {
    private static final long SECOND = 1_000_000_000L;

    private static Window busy(long countSpent, String name) {
        return new Window(SECOND, 0, List.of(new Point(name, 10_000_000, countSpent)));
    }

    @Test
    void nothingIsDecidedUntilTheSumHoldsItsWindowsThenTheLastOnesAreAdded() {
        WindowSum sum = new WindowSum();
        assertNull(sum.add(busy(600_000_000, "count")));
        assertNull(sum.add(busy(500_000_000, "count")));
        Window w = sum.add(busy(700_000_000, "count"));
        assertNotNull(w);
        assertEquals(3 * SECOND, w.elapsedNanos());
        assertEquals(30_000_000, w.points().get(0).tuples());
        assertEquals(1_800_000_000L, w.points().get(0).spentNanos());
        // a fourth slides the first out
        w = sum.add(busy(800_000_000, "count"));
        assertEquals(2_000_000_000L, w.points().get(0).spentNanos());
    }

    @Test
    void anIdleWindowOrAnotherLayoutStartsAfresh() {
        WindowSum sum = new WindowSum();
        sum.add(busy(600_000_000, "count"));
        sum.add(busy(600_000_000, "count"));
        Window idle = new Window(SECOND, SECOND / 2, List.of(new Point("count", 1, 1)));
        assertSame(idle, sum.add(idle), "an idle window goes to the policy as it is, which declines it");
        assertNull(sum.add(busy(600_000_000, "count")));
        assertNull(sum.add(busy(600_000_000, "count")));
        assertNull(sum.add(busy(600_000_000, "split")), "the fused tasks changed");
    }

    @Test
    void theSumDecidesAsTheMeanWouldWhereOneWindowSwings() {
        // count's share swings 50-62% window to window: alone, one window cuts (1.6x) and the next does not (1.25x
        // under a bar of 1.3); summed, the mean decides once, the same way every time
        PlacementPolicy.Mode mode = new PlacementPolicy.Mode(true, 1.3);
        Window high = new Window(SECOND, 0, List.of(new Point("count", 1_000, 620_000_000)));
        Window low = new Window(SECOND, 0, List.of(new Point("count", 1_000, 800_000_000)));
        assertNotNull(PlacementPolicy.decide(mode, high, 1, 2));
        assertNull(PlacementPolicy.decide(mode, low, 1, 2));
        WindowSum sum = new WindowSum();
        sum.add(high);
        sum.add(low);
        Window mean = sum.add(high);
        assertNotNull(PlacementPolicy.decide(mode, mean, 1, 2));
    }

    /** A busy window of {@code tuples} at its first task, waiting for a core {@code waits} ns of its second. */
    private static Window onCore(long tuples, long waits) {
        return new Window(SECOND, 0, List.of(new Point("count", tuples, tuples * 30)), PlacementPolicy.Tracking.NONE,
            waits);
    }

    @Test
    void nothingIsDecidedWhileTheJitStillSpeedsTheChainUp() {
        // WordCount p=1's first seconds: 3M, 6M, then 9M words a second on a whole core; then 9.4M and 9.6M
        WindowSum sum = new WindowSum();
        assertNull(sum.add(onCore(3_000_000, 0)));
        assertNull(sum.add(onCore(6_000_000, 0)));
        assertNull(sum.add(onCore(9_000_000, 0)), "three windows, but the speed tripled across them");
        assertNull(sum.add(onCore(9_400_000, 0)), "6M to 9.4M: still 1.57x");
        Window w = sum.add(onCore(9_600_000, 0));
        assertNotNull(w, "9M, 9.4M, 9.6M: steady");
        assertEquals(28_000_000, w.points().get(0).tuples());
        assertEquals(0, w.waitNanos());
    }

    @Test
    void aThreadWaitingForACoreRunsAtTheSameSpeed() {
        // the machine's other work takes half a core in the second window: fewer tuples, the same speed on a core
        assertTrue(WindowSum.steady(List.of(onCore(9_000_000, 0), onCore(4_600_000, SECOND / 2),
            onCore(9_200_000, 0))));
        assertFalse(WindowSum.steady(List.of(onCore(9_000_000, 0), onCore(9_000_000, SECOND / 2))));
        // without CPU times the time not parked stands for the work
        assertTrue(WindowSum.steady(List.of(busy(1, "count"), busy(1, "count"))));
    }

    @Test
    void theWaitsAreSummedWhereEveryWindowKnowsThem() {
        WindowSum sum = new WindowSum();
        sum.add(onCore(9_000_000, 100));
        sum.add(onCore(9_000_000, 200));
        assertEquals(600, sum.add(onCore(9_000_000, 300)).waitNanos());
        assertEquals(-1, sum.add(new Window(SECOND, 0, List.of(new Point("count", 9_000_000, 270_000_000))))
            .waitNanos());
    }
}
