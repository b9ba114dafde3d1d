package io.microburst.runtime.clock;

/**
 * The time budget of one executor turn and the branch-free comparisons that spend it. Stateless; any thread.
 *
 * <p>A turn overruns its budget only when its thread is descheduled in the middle of it, so for millions of turns the
 * JIT sees one outcome of such a comparison and compiles the other as a trap; the first overrun, at a random moment in
 * a steady run, then deoptimizes the loop. In measurements a thread went on running that method in the interpreter
 * for the rest of the run, at a third to a half of its speed (see docs/performance/2026-11-23-executor-loop-traps.md).
 * So time decisions are arithmetic: the sign bit of a difference lowers a loop's limit or clears a flag.
 *
 * <p>Public for the data path's drains and spout loops ({@code runtime.task}); pure arithmetic, any thread.
 */
public final class TurnBudget {
    /** How long one turn may read input or call spouts before it reads its mail again. */
    public static final long TURN_BUDGET_NANOS = 1_000_000;


    /**
     * Calls slower than this on average are slow: their executor hands each emit over at once (see
     * {@code Outbox#pace}), since a batch filled by such calls may wait for any one of them to return. At this pace
     * a hand-over (about a microsecond, waking the consumer included) costs at most about 1% of the calls' time.
     */
    static final long SLOW_CALL_NANOS = 100_000;

    private TurnBudget() {
    }

    /**
     * 1 while the clock must still be read this turn, 0 once {@code tuples} executed in {@code elapsedNanos} show a
     * pace at which a whole drain limit of tuples fits in one turn's budget.
     */
    public static int drainStaysTimed(long elapsedNanos, int tuples, int drainLimit) {
        return exceeds(elapsedNanos * drainLimit, TURN_BUDGET_NANOS * tuples - 1);
    }

    /** 1 when {@code calls} user calls took more than {@link #SLOW_CALL_NANOS} each on average, else 0. */
    public static int slowCalls(long elapsedNanos, int calls) {
        return exceeds(elapsedNanos, SLOW_CALL_NANOS * calls);
    }

    /** 1 when {@code value > bound}, else 0, computed without a branch. */
    public static int exceeds(long value, long bound) {
        return (int) ((bound - value) >>> 63);
    }
}
