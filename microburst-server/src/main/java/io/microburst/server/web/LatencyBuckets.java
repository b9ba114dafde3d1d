package io.microburst.server.web;

import io.microburst.metrics.LatencyHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Sampled latencies of a task or component put into fixed buckets, for Prometheus' classic histograms and the pages'
 * bars: the bucket bounds run from 1 µs to 10 s in steps of 1-5-10, then +Inf.
 */
final class LatencyBuckets {
    /** Upper bounds in seconds, inclusive; the last is +Inf. */
    static final double[] BOUNDS_SECONDS = {1e-6, 5e-6, 1e-5, 5e-5, 1e-4, 5e-4, 1e-3, 5e-3, 1e-2, 5e-2, 0.1, 0.5, 1, 5,
        10, Double.POSITIVE_INFINITY};

    final long[] counts = new long[BOUNDS_SECONDS.length];
    /** Approximate sum of the latencies, in seconds (each value at its HdrHistogram bucket's resolution). */
    double sumSeconds;
    long total;

    private LatencyBuckets() {
    }

    /** The buckets of {@code histogram}'s values (nanoseconds). */
    static LatencyBuckets of(Histogram histogram) {
        LatencyBuckets b = new LatencyBuckets();
        for (HistogramIterationValue v : histogram.recordedValues()) {
            long value = v.getValueIteratedTo();
            double seconds = histogram.lowestEquivalentValue(value) / 1e9;
            long count = v.getCountAtValueIteratedTo();
            int i = 0;
            while (seconds > BOUNDS_SECONDS[i]) {
                i++;
            }
            b.counts[i] += count;
            b.sumSeconds += histogram.medianEquivalentValue(value) / 1e9 * count;
            b.total += count;
        }
        return b;
    }

    /** A copy of what {@code latencies} holds so far, or null when it is null (nothing sampled yet). */
    static Histogram snapshot(LatencyHistogram latencies) {
        return latencies == null ? null : latencies.snapshot();
    }
}
