package io.microburst.runtime.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** An executor stops reading the clock within a turn only when the pace it measured cannot use up the turn's budget. */
class DrainBudgetTest {
    private static final long BUDGET = TurnBudget.TURN_BUDGET_NANOS;

    @Test
    void fastTuplesStopTheClockReads() {
        // 16 tuples in 1 µs: 256 of them take 16 µs
        assertEquals(0, TurnBudget.drainStaysTimed(1_000, 16, 256));
    }

    @Test
    void aPaceThatWouldOverrunTheBudgetKeepsTheClockReads() {
        // 16 tuples in 100 µs: 256 of them would take 1.6 ms
        assertEquals(1, TurnBudget.drainStaysTimed(100_000, 16, 256));
        // exactly the budget is not under it
        assertEquals(1, TurnBudget.drainStaysTimed(BUDGET / 16, 1, 16));
        assertEquals(0, TurnBudget.drainStaysTimed(BUDGET / 16 - 1, 1, 16));
    }

    @Test
    void aFewFastTuplesSayLittleAboutALargeLimit() {
        // 1 tuple in 10 µs looks fast, but a limit of 256 at that pace is 2.56 ms
        assertEquals(1, TurnBudget.drainStaysTimed(10_000, 1, 256));
        assertEquals(0, TurnBudget.drainStaysTimed(10_000, 1, 64));
    }

    @Test
    void exceedsIsOneOnlyAboveTheBound() {
        assertEquals(1, TurnBudget.exceeds(BUDGET + 1, BUDGET));
        assertEquals(0, TurnBudget.exceeds(BUDGET, BUDGET));
        assertEquals(0, TurnBudget.exceeds(0, BUDGET));
        assertEquals(1, TurnBudget.exceeds(1, 0));
        assertEquals(0, TurnBudget.exceeds(-5, -5));
        // a turn's limit drops to what is done when the budget is spent, and stays when it is not
        int limit = 256;
        int done = 48;
        assertEquals(done, limit - (limit - done) * TurnBudget.exceeds(BUDGET + 1, BUDGET));
        assertEquals(limit, limit - (limit - done) * TurnBudget.exceeds(BUDGET - 1, BUDGET));
    }
}
