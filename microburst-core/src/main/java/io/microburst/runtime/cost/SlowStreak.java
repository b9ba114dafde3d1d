package io.microburst.runtime.cost;

import java.util.function.LongSupplier;

/**
 * Whether a fused task's sampled executes say it holds its producer back: at least {@link #SAMPLES_TO_MOVE} sampled
 * executes in a row slower than {@link #SLOW_NANOS}, over at least {@link #STREAK_NANOS}. A few slow executes in a row
 * can be a thread descheduled while the JIT compilers take both cores at warm-up; a task that is really slow stays slow
 * for longer. And a streak in which the thread waited for a core for {@link #MAX_WAIT_SHARE} of its slow samples' time
 * or more ({@link ThreadWaits}) is no streak: the thread was descheduled by other work, and the task, moved, would be
 * as fast as before (on a machine loaded past its cores, a 1 µs bolt was moved so in some runs and not in others). A
 * blocking task waits for what it blocks on, not for a core, so it still moves. A pure function of the times it is
 * given, so tests give it times of their own.
 *
 * <p>It also sums the fast samples for {@link BalanceWindow}: a sample this slow in a task that is not moved is a GC
 * pause or the thread descheduled, not the task's cost, and one such sample among a window's thousands (a 5 ms pause in
 * a 50 ns task) would double the placement's estimate of the task.
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
    /**
     * The share of a streak's slow samples' time spent waiting for a core from which it is the machine's load, not the
     * task (the thread may park between samples, so the samples' time, not the streak's, is what the waits explain).
     */
    static final double MAX_WAIT_SHARE = 0.5;

    private final LongSupplier threadWaits;
    private long waitsAtStart;
    private long streakSampledNanos;

    private int samples;
    private long sinceNanos;
    /** Sum of the fast samples' times so far. */
    long fastNanos;
    /** Fast samples so far. */
    long fastSamples;
    /** Slow samples so far. */
    long slowSamples;

    /** A streak that does not know the thread's waits for a core (tests of the times alone). */
    public SlowStreak() {
        this(() -> -1);
    }

    /**
     * With a reader of the calling thread's total wait for a core ({@link ThreadWaits#currentNanos}), read on slow
     * samples only.
     */
    public SlowStreak(LongSupplier threadWaits) {
        this.threadWaits = threadWaits;
    }

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
            waitsAtStart = threadWaits.getAsLong();
            streakSampledNanos = 0;
        }
        streakSampledNanos += nanos;
        long streak = startNanos + nanos - sinceNanos;
        if (samples < SAMPLES_TO_MOVE || streak < STREAK_NANOS) {
            return SLOW;
        }
        long waitsNow = threadWaits.getAsLong();
        boolean known = waitsAtStart >= 0 && waitsNow >= waitsAtStart;
        if (known && waitsNow - waitsAtStart >= streakSampledNanos * MAX_WAIT_SHARE) {
            samples = 0; // descheduled, not slow: a streak starts afresh with the next slow sample
            return SLOW;
        }
        return MOVE;
    }


}
