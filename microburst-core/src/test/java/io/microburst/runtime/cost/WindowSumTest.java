package io.microburst.runtime.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

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
}
