package io.microburst.cli.stats;

/**
 * One component's totals and its rates over the last sampling interval.
 *
 * @param emittedPerSecond tuples emitted per second since the previous sample
 * @param executedPerSecond tuples executed per second since the previous sample
 */
public record ComponentRate(String componentId, ComponentKind kind, int executors, long emitted, long executed,
                            double emittedPerSecond, double executedPerSecond) {
}
