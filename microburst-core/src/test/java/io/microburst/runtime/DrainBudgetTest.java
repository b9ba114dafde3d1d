package io.microburst.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** An executor stops reading the clock within a turn only when the pace it measured cannot use up the turn's budget. */
class DrainBudgetTest {
    private static final long BUDGET = Executor.TURN_BUDGET_NANOS;

    @Test
    void fastTuplesStopTheClockReads() {
        // 16 tuples in 1 µs: 256 of them take 16 µs
        assertTrue(Executor.drainFitsBudget(1_000, 16, 256));
    }

    @Test
    void aPaceThatWouldOverrunTheBudgetKeepsTheClockReads() {
        // 16 tuples in 100 µs: 256 of them would take 1.6 ms
        assertFalse(Executor.drainFitsBudget(100_000, 16, 256));
        // exactly the budget is not under it
        assertFalse(Executor.drainFitsBudget(BUDGET / 16, 1, 16));
        assertTrue(Executor.drainFitsBudget(BUDGET / 16 - 1, 1, 16));
    }

    @Test
    void aFewFastTuplesSayLittleAboutALargeLimit() {
        // 1 tuple in 10 µs looks fast, but a limit of 256 at that pace is 2.56 ms
        assertFalse(Executor.drainFitsBudget(10_000, 1, 256));
        assertTrue(Executor.drainFitsBudget(10_000, 1, 64));
    }
}
