package io.microburst.metrics;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.Metered;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.storm.metric.api.IMetricsConsumer.DataPoint;
import org.apache.storm.metrics2.StormMetricRegistry;

/**
 * A task's v2 metrics (the registry behind TopologyContext.registerCounter and friends) as v1 data points, for
 * topologies that set topology.enable.v2.metrics.tick. Names follow Storm's: a counter or gauge under its own name; a
 * histogram as {@code .count} plus snapshot statistics ({@code .min .max .mean .stddev .p50 .p75 .p95 .p98 .p99
 * .p999}); a meter as {@code .count .m1_rate .m5_rate .m15_rate .mean_rate}; a timer as both. Snapshot statistics
 * are scaled from nanoseconds to milliseconds, as Storm scales them.
 *
 * <p>Threading: stateless; called on the executor thread that collects a task's metrics.
 */
public final class V2DataPoints {
    private static final double NANOS_TO_MILLIS = 1.0 / TimeUnit.MILLISECONDS.toNanos(1);

    private V2DataPoints() {
    }

    public static List<DataPoint> of(StormMetricRegistry registry, int taskId) {
        List<DataPoint> points = new ArrayList<>();
        for (Map.Entry<String, Gauge> e : registry.getTaskGauges(taskId).entrySet()) {
            Object value = e.getValue().getValue();
            if (value instanceof Number) {
                points.add(new DataPoint(e.getKey(), value));
            }
        }
        for (Map.Entry<String, Counter> e : registry.getTaskCounters(taskId).entrySet()) {
            points.add(new DataPoint(e.getKey(), e.getValue().getCount()));
        }
        for (Map.Entry<String, Histogram> e : registry.getTaskHistograms(taskId).entrySet()) {
            snapshot(e.getKey(), e.getValue().getSnapshot(), points);
            points.add(new DataPoint(e.getKey() + ".count", e.getValue().getCount()));
        }
        for (Map.Entry<String, Meter> e : registry.getTaskMeters(taskId).entrySet()) {
            metered(e.getKey(), e.getValue(), points);
        }
        for (Map.Entry<String, Timer> e : registry.getTaskTimers(taskId).entrySet()) {
            snapshot(e.getKey(), e.getValue().getSnapshot(), points);
            metered(e.getKey(), e.getValue(), points);
        }
        return points;
    }

    private static void metered(String name, Metered m, List<DataPoint> points) {
        points.add(new DataPoint(name + ".count", m.getCount()));
        points.add(new DataPoint(name + ".m1_rate", m.getOneMinuteRate()));
        points.add(new DataPoint(name + ".m5_rate", m.getFiveMinuteRate()));
        points.add(new DataPoint(name + ".m15_rate", m.getFifteenMinuteRate()));
        points.add(new DataPoint(name + ".mean_rate", m.getMeanRate()));
    }

    private static void snapshot(String name, Snapshot s, List<DataPoint> points) {
        points.add(new DataPoint(name + ".max", s.getMax() * NANOS_TO_MILLIS));
        points.add(new DataPoint(name + ".mean", s.getMean() * NANOS_TO_MILLIS));
        points.add(new DataPoint(name + ".min", s.getMin() * NANOS_TO_MILLIS));
        points.add(new DataPoint(name + ".stddev", s.getStdDev() * NANOS_TO_MILLIS));
        points.add(new DataPoint(name + ".p50", s.getMedian() * NANOS_TO_MILLIS));
        points.add(new DataPoint(name + ".p75", s.get75thPercentile() * NANOS_TO_MILLIS));
        points.add(new DataPoint(name + ".p95", s.get95thPercentile() * NANOS_TO_MILLIS));
        points.add(new DataPoint(name + ".p98", s.get98thPercentile() * NANOS_TO_MILLIS));
        points.add(new DataPoint(name + ".p99", s.get99thPercentile() * NANOS_TO_MILLIS));
        points.add(new DataPoint(name + ".p999", s.get999thPercentile() * NANOS_TO_MILLIS));
    }
}
