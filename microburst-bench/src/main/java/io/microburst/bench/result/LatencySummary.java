package io.microburst.bench.result;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Latency of one run, in microseconds.
 *
 * @param kind "end-to-end" or "complete"
 * @param count values recorded
 * @param p50 median
 * @param p99 99th percentile
 * @param p999 99.9th percentile
 * @param max largest value
 * @param mean mean
 * @param cdf the distribution at {@link #CDF_PERCENTILES}
 */
public record LatencySummary(String kind, long count, double p50, double p99, double p999, double max, double mean,
                             List<CdfPoint> cdf) {
    /** Where the CDF is sampled: even steps through the body, then ever finer steps into the tail. */
    public static final double[] CDF_PERCENTILES = {0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90,
        92.5, 95, 97.5, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 100};

    public LatencySummary {
        cdf = List.copyOf(cdf);
    }

    /** Summarises a histogram of nanosecond values. */
    public static LatencySummary of(String kind, Histogram nanos) {
        List<CdfPoint> cdf = new ArrayList<>();
        for (double p : CDF_PERCENTILES) {
            cdf.add(new CdfPoint(p, micros(p == 0 ? nanos.getMinValue() : nanos.getValueAtPercentile(p))));
        }
        return new LatencySummary(kind, nanos.getTotalCount(), micros(nanos.getValueAtPercentile(50)),
            micros(nanos.getValueAtPercentile(99)), micros(nanos.getValueAtPercentile(99.9)), micros(nanos.getMaxValue()),
            nanos.getTotalCount() == 0 ? 0 : nanos.getMean() / 1000.0, cdf);
    }

    private static double micros(long nanos) {
        return nanos / 1000.0;
    }
}
