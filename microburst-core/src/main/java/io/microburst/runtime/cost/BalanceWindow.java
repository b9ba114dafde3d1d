package io.microburst.runtime.cost;

import io.microburst.metrics.TaskStats;

/**
 * One fused task's share of its executor's last pipelining window (see {@code Balancer}): the executes counted, the
 * mean sampled execute time (everything fused into the task included) and the time estimated from the two.
 *
 * <p>The mean is that of the samples under {@link SlowStreak#SLOW_NANOS} only. A fused task slower than that is moved
 * by its slow streak, not by the balancer; in a faster one, a sample that slow is a GC pause or the thread descheduled
 * while the task ran, and the pause's milliseconds are no cost of the task's: taken into the mean of a 50 ns task they
 * made its estimate swing between windows by a factor of two and more, so the same cut was rarely chosen twice in a
 * row. When every sample of the window was slow, the mean is {@link SlowStreak#SLOW_NANOS}, a lower bound.
 *
 * <p>Threading: the executor's own thread only.
 *
 * <p>Public because a bolt task keeps one ({@code runtime.task}) and the executor's {@code Balancer} fills and reads
 * it; both on that executor's thread.
 */
public final class BalanceWindow {
    private long executed;
    private long fastNanos;
    private long fastSamples;
    private long slowSamples;
    /** Executes counted in the last window. */
    long tuples;

    /** Executes counted in the last window. The executor's thread. */
    public final long tuples() {
        return tuples;
    }
    /** Mean sampled execute time in the last window, or -1 when no execute was sampled. */
    long meanNanos = -1;

    /** Mean sampled execute time in the last window. The executor's thread. */
    public final long meanNanos() {
        return meanNanos;
    }
    /** Time spent executing in the last window, estimated; -1 when no execute was sampled. */
    long spentNanos = -1;

    /** Closes the window at the task's counters now. */
    public void close(TaskStats stats, SlowStreak samples) {
        long nowExecuted = stats.executedTotal();
        long dExecuted = nowExecuted - executed;
        long dFast = samples.fastSamples - fastSamples;
        long dSlow = samples.slowSamples - slowSamples;
        tuples = dExecuted;
        if (dExecuted <= 0) {
            meanNanos = -1;
        } else if (dFast > 0) {
            meanNanos = (samples.fastNanos - fastNanos) / dFast;
        } else {
            meanNanos = dSlow > 0 ? SlowStreak.SLOW_NANOS : -1;
        }
        spentNanos = meanNanos < 0 ? -1 : meanNanos * dExecuted;
        executed = nowExecuted;
        fastNanos = samples.fastNanos;
        fastSamples = samples.fastSamples;
        slowSamples = samples.slowSamples;
    }
}
