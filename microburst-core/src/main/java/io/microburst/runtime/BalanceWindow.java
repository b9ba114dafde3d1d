package io.microburst.runtime;

import io.microburst.metrics.TaskStats;

/**
 * One fused task's share of its executor's last pipelining window (see {@link Balancer}): the executes counted, the
 * mean sampled execute time (everything fused into the task included) and the time estimated from the two.
 *
 * <p>Threading: the executor's own thread only.
 */
final class BalanceWindow {
    private long executed;
    private long executeNanos;
    private long executeSamples;
    /** Executes counted in the last window. */
    long tuples;
    /** Mean sampled execute time in the last window, or -1 when no execute was sampled. */
    long meanNanos = -1;
    /** Time spent executing in the last window, estimated; -1 when no execute was sampled. */
    long spentNanos = -1;

    /** Closes the window at the task's counters now. */
    void close(TaskStats stats) {
        long nowExecuted = stats.executedTotal();
        long nanos = stats.executeNanosTotal();
        long samples = stats.executeSamplesTotal();
        long dExecuted = nowExecuted - executed;
        long dSamples = samples - executeSamples;
        tuples = dExecuted;
        meanNanos = dSamples > 0 && dExecuted > 0 ? (nanos - executeNanos) / dSamples : -1;
        spentNanos = meanNanos < 0 ? -1 : meanNanos * dExecuted;
        executed = nowExecuted;
        executeNanos = nanos;
        executeSamples = samples;
    }
}
