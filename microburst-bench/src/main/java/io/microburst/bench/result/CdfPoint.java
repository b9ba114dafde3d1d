package io.microburst.bench.result;

/**
 * One point of a latency CDF.
 *
 * @param percentile 0 to 100
 * @param micros latency at that percentile, microseconds
 */
public record CdfPoint(double percentile, double micros) {
}
