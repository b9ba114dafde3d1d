package io.microburst.bench.result;

import java.util.Arrays;
import java.util.Collection;

/** Small statistics over the rounds of one (workload, runtime). Stateless. */
public final class Stats {
    private Stats() {
    }

    /** Median of the finite values; NaN when there are none. Even counts take the mean of the middle two. */
    public static double median(Collection<Double> values) {
        double[] finite = values.stream().filter(v -> v != null && Double.isFinite(v)).mapToDouble(Double::doubleValue)
            .sorted().toArray();
        if (finite.length == 0) {
            return Double.NaN;
        }
        int mid = finite.length / 2;
        return finite.length % 2 == 1 ? finite[mid] : (finite[mid - 1] + finite[mid]) / 2;
    }

    /** {@code numerator / denominator}, or NaN when either is missing or the denominator is not positive. */
    public static double ratio(double numerator, double denominator) {
        if (!Double.isFinite(numerator) || !Double.isFinite(denominator) || denominator <= 0) {
            return Double.NaN;
        }
        return numerator / denominator;
    }

    /** Relative spread of the finite values, (max - min) / median; NaN with fewer than two values. */
    public static double spread(Collection<Double> values) {
        double[] finite = values.stream().filter(v -> v != null && Double.isFinite(v)).mapToDouble(Double::doubleValue)
            .toArray();
        if (finite.length < 2) {
            return Double.NaN;
        }
        double med = median(Arrays.stream(finite).boxed().toList());
        double max = Arrays.stream(finite).max().orElseThrow();
        double min = Arrays.stream(finite).min().orElseThrow();
        return ratio(max - min, med);
    }
}
