package io.microburst.runtime.cost;

/**
 * Whether a fused task's sampled executes say it holds its producer back: at least {@link #SAMPLES_TO_MOVE} sampled
 * executes in a row slower than {@link #SLOW_NANOS}, over at least {@link #STREAK_NANOS}. A few slow executes in a
 * row can be a thread descheduled while the JIT compilers take both cores at warm-up; a task that is really slow
 * stays slow for longer. A pure function of the times it is given, so tests give it times of their own.
 *
 * <p>It also sums the fast samples for {@link BalanceWindow}: a sample this slow in a task that is not moved is a GC
 * pause or the thread descheduled, not the task's cost, and one such sample among a window's thousands (a 5 ms pause
 * in a 50 ns task) would double the placement's estimate of the task.
 *
 * <p>Threading: the task's executor thread only.
 *
 * <p>Public because a bolt task keeps one ({@code runtime.task}) and the executor's {@code Balancer} reads it; both on
 * that executor's thread.
 */
public final class SlowStreak {
    /** Execute time above which a fused task counts as slow. */
    static final long SLOW_NANOS = 200_000;
    /** Consecutive slow samples before a fused task moves; one or two are a cold start or a GC pause. */
    static final int SAMPLES_TO_MOVE = 4;
    /** How long a run of slow samples must last before a fused task moves. */
    static final long STREAK_NANOS = 20_000_000;
    /** The sample was fast: the streak, if any, ends. */
    static final int FAST = 0;
    /** The sample was slow: time the next execute too, so that every execute of a streak is timed. */
    public static final int SLOW = 1;
    /** The streak is long enough: the task should move. */
    public static final int MOVE = 2;

    private int samples;
    private long sinceNanos;
    /** Sum of the fast samples' times so far. */
    long fastNanos;
    /** Fast samples so far. */
    long fastSamples;
    /** Slow samples so far. */
    long slowSamples;

    /** One sampled execute that started at {@code startNanos} and took {@code nanos}. */
    public int sample(long startNanos, long nanos) {
        if (nanos < SLOW_NANOS) {
            samples = 0;
            fastNanos += nanos;
            fastSamples++;
            return FAST;
        }
        slowSamples++;
        if (samples++ == 0) {
            sinceNanos = startNanos;
        }
        return samples >= SAMPLES_TO_MOVE && startNanos + nanos - sinceNanos >= STREAK_NANOS ? MOVE : SLOW;
    }


}
