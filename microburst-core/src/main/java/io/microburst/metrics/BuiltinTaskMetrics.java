package io.microburst.metrics;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Metric;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.IntSupplier;
import org.apache.storm.metrics2.RollingAverageGauge;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.utils.Utils;

/**
 * Storm's built-in task metrics, in the v2 registry under Storm's names and shapes, computed from a task's
 * {@link TaskStats} when they are read rather than on the per-tuple path. As Storm 2.8.3 registers them (its
 * {@code TaskMetrics}, {@code BoltExecutorStats} and receive queue): counters {@code __emit-count-<stream>},
 * {@code __transfer-count-<stream>}, {@code __ack-count-} and {@code __fail-count-} by stream (spout) or by
 * {@code <component>:<stream>} input (bolt), {@code __execute-count-<component>:<stream>}, each with a
 * {@code .m1_rate} gauge (events over the last minute, per second); gauges averaging the latest latencies in ms,
 * {@code __complete-latency-<stream>}, {@code __process-latency-} and {@code __execute-latency-<component>:<stream>};
 * {@code __capacity} for bolts; and the receive queue's {@code receive-queue-capacity}, {@code -population},
 * {@code -pct_full}, {@code -arrival_rate_secs} (over the interval between reads) and {@code -sojourn_time_ms}; and
 * {@code __reported-error-count} (errors the task reported, with its {@code .m1_rate}), which like Storm's is there
 * from the start, keyed by component and task only. Like Storm's, a counter or latency appears once its first event happened. Unlike Storm's, which
 * count one sampled event as {@code 1/topology.stats.sample.rate} events, counts are exact.
 *
 * <p>Threading: every method holds the lock of the {@code owned} set, which the task's new instances also hold while
 * they deregister their predecessor's metrics; {@link #update} reads the task's counters racily (each value whole,
 * possibly a few increments old), from the timer thread or the task's own.
 */
public final class BuiltinTaskMetrics {
    private static final long MINUTE_NANOS = 60_000_000_000L;

    private final StormMetricRegistry registry;
    private final String topologyId;
    private final int port;
    private final boolean bolt;
    /** True for a spout task that reports Storm's skipped-time metrics. */
    private final boolean skipped;
    /** Every metric registered here, so that a new instance of the task does not deregister them. */
    private final Set<Metric> owned;
    private final Map<String, Rate> rates = new HashMap<>();
    private final Map<String, RollingAverageGauge> averages = new HashMap<>();
    private TaskStats stats;
    private TaskStats last;
    private long lastNanos = System.nanoTime();
    private final IntSupplier queuePopulation;
    private int lastPopulation;
    private volatile double arrivalRate;
    private final Rate reportedErrorRate;
    private long lastReportedErrors;
    /** Storm's spout skipped-time counters, by TaskStats' SKIPPED_ reasons; whole milliseconds, as Storm counts. */
    private static final String[] SKIPPED_NAMES = {"__skipped-max-spout-ms", "__skipped-inactive-ms",
        "__skipped-backpressure-ms"};
    private final Rate[] skippedRates = new Rate[SKIPPED_NAMES.length];
    private final long[] lastSkippedMs = new long[SKIPPED_NAMES.length];

    /**
     * @param executorFirst the task is the first of its executor as Storm splits the component's tasks over executors:
     *     a spout's skipped-time metrics are registered for that task only, as Storm's spout executor registers them
     */
    public BuiltinTaskMetrics(TaskStats stats, StormMetricRegistry registry, String topologyId, int port, boolean bolt,
        boolean executorFirst, Set<Metric> owned, IntSupplier queueCapacity, IntSupplier queuePopulation) {
        this.stats = stats;
        this.registry = registry;
        this.topologyId = topologyId;
        this.port = port;
        this.bolt = bolt;
        this.skipped = !bolt && executorFirst;
        this.owned = owned;
        this.queuePopulation = queuePopulation;
        String component = stats.componentId();
        int task = stats.taskId();
        Counter errorCount = registry.counter("__reported-error-count", component, task);
        owned.add(errorCount);
        reportedErrorRate = new Rate(errorCount);
        gauge(registry.gauge("__reported-error-count.m1_rate", reportedErrorRate, component, task));
        if (skipped) {
            // as Storm's spout executor registers them: from the start, keyed by component and task only
            for (int reason = 0; reason < SKIPPED_NAMES.length; reason++) {
                Counter c = registry.counter(SKIPPED_NAMES[reason], component, task);
                owned.add(c);
                skippedRates[reason] = new Rate(c);
                gauge(registry.gauge(SKIPPED_NAMES[reason] + ".m1_rate", skippedRates[reason], component, task));
            }
        }
        gauge(registry.gauge("receive-queue-capacity", (Gauge<Integer>) queueCapacity::getAsInt, topologyId,
            component, task, port));
        gauge(registry.gauge("receive-queue-population", (Gauge<Integer>) queuePopulation::getAsInt, topologyId,
            component, task, port));
        gauge(registry.gauge("receive-queue-pct_full",
            (Gauge<Float>) () -> 1.0F * queuePopulation.getAsInt() / Math.max(1, queueCapacity.getAsInt()), topologyId,
            component, task, port));
        gauge(registry.gauge("receive-queue-arrival_rate_secs", (Gauge<Double>) () -> arrivalRate, topologyId, component,
            task, port));
        // as Storm's: how long a tuple arriving now waits, by Little's law (population over arrival rate)
        gauge(registry.gauge("receive-queue-sojourn_time_ms", (Gauge<Double>) () -> {
            double rate = arrivalRate;
            return rate > 0 ? 1000.0 * queuePopulation.getAsInt() / rate : 0.0;
        }, topologyId, component, task, port));
    }

    private void gauge(Gauge<?> g) {
        owned.add(g);
    }

    /** The task now counts into {@code fresh} (its executors were rebuilt): go on from there, counters unbroken. */
    public void rebind(TaskStats fresh) {
        synchronized (owned) {
            if (fresh != stats) {
                stats = fresh;
                last = null;
                lastReportedErrors = 0;
                java.util.Arrays.fill(lastSkippedMs, 0);
            }
        }
    }

    /** Brings the registry's built-in metrics up to the task's counters. */
    public void update() {
        synchronized (owned) {
            updateLocked();
        }
    }

    private void updateLocked() {
        long now = System.nanoTime();
        TaskStats d = stats.since(last);
        last = stats.copy();
        long elapsed = Math.max(1, now - lastNanos);
        lastNanos = now;
        for (int s = 0; s < d.outStreamCount(); s++) {
            String stream = d.outStream(s);
            count("__emit-count-" + stream, stream, d.emitted(s), now);
            count("__transfer-count-" + stream, stream, d.transferred(s), now);
            if (!bolt) {
                count("__ack-count-" + stream, stream, d.spoutAckedCount(s), now);
                count("__fail-count-" + stream, stream, d.spoutFailedCount(s), now);
                if (d.completeSamples[s] > 0) {
                    average("__complete-latency-" + stream, stream, d.completeMsAvg(s));
                }
            }
        }
        double busyNanos = 0;
        for (int i = 0; i < d.inputCount(); i++) {
            String stream = d.inputStream(i);
            String key = d.inputComponent(i) + ":" + stream;
            count("__execute-count-" + key, stream, d.executed(i), now);
            count("__ack-count-" + key, stream, d.acked(i), now);
            count("__fail-count-" + key, stream, d.failed(i), now);
            if (d.executeSamples[i] > 0) {
                average("__execute-latency-" + key, stream, d.executeMsAvg(i));
                busyNanos += d.executeMsAvg(i) * 1e6 * d.executed(i);
            }
            if (d.processSamples[i] > 0) {
                average("__process-latency-" + key, stream, d.processMsAvg(i));
            }
        }
        updateArrivalRate(d, elapsed);
        if (bolt && (busyNanos > 0 || averages.containsKey("__capacity"))) {
            // the share of the interval spent executing, as Storm's capacity is (over its ten-minute window)
            average("__capacity", Utils.DEFAULT_STREAM_ID, busyNanos / elapsed);
        }
        long errors = stats.reportedErrors();
        reportedErrorRate.counter.inc(errors - lastReportedErrors);
        lastReportedErrors = errors;
        reportedErrorRate.sample(now);
        if (skipped) {
            for (int reason = 0; reason < SKIPPED_NAMES.length; reason++) {
                long ms = stats.skippedNanos(reason) / 1_000_000;
                skippedRates[reason].counter.inc(ms - lastSkippedMs[reason]);
                lastSkippedMs[reason] = ms;
                skippedRates[reason].sample(now);
            }
        }
        for (Rate r : rates.values()) {
            r.sample(now);
        }
    }

    /**
     * Arrivals at the receive queue over the interval: what the task took from it (tuples executed; for a spout, the
     * acks and fails delivered) plus the growth of its population.
     */
    private void updateArrivalRate(TaskStats d, long elapsedNanos) {
        long taken = 0;
        for (int i = 0; i < d.inputCount(); i++) {
            taken += d.executed(i);
        }
        if (!bolt) {
            for (int s = 0; s < d.outStreamCount(); s++) {
                taken += d.spoutAckedCount(s) + d.spoutFailedCount(s);
            }
        }
        int population = queuePopulation.getAsInt();
        arrivalRate = Math.max(0, taken + population - lastPopulation) * 1e9 / elapsedNanos;
        lastPopulation = population;
    }

    private void count(String name, String stream, long delta, long now) {
        Rate r = rates.get(name);
        if (r == null) {
            if (delta == 0) {
                return;
            }
            Counter counter = registry.counter(name, topologyId, stats.componentId(), stats.taskId(), port, stream);
            r = new Rate(counter);
            gauge(registry.gauge(name + ".m1_rate", r, topologyId, stats.componentId(), stream, stats.taskId(), port));
            owned.add(counter);
            rates.put(name, r);
        }
        r.counter.inc(delta);
    }

    private void average(String name, String stream, double value) {
        RollingAverageGauge g = averages.get(name);
        if (g == null) {
            g = new RollingAverageGauge();
            gauge(registry.gauge(name, g, topologyId, stats.componentId(), stream, stats.taskId(), port));
            averages.put(name, g);
        }
        g.addValue(value);
    }

    /** A counter's events per second over the last minute, from the counts seen at each update. */
    private static final class Rate implements Gauge<Double> {
        private static final int SLOTS = 64;
        final Counter counter;
        private final long[] times = new long[SLOTS];
        private final long[] counts = new long[SLOTS];
        private int next;
        private int size;
        private volatile double rate;

        Rate(Counter counter) {
            this.counter = counter;
        }

        void sample(long now) {
            long count = counter.getCount();
            times[next] = now;
            counts[next] = count;
            next = (next + 1) % SLOTS;
            size = Math.min(SLOTS, size + 1);
            // as Storm's rate: the count a minute ago (none yet: 0) taken from the count now, over 60 s
            long base = size == SLOTS ? counts[next] : 0;
            for (int i = 1; i <= size; i++) {
                int slot = Math.floorMod(next - i, SLOTS);
                if (now - times[slot] >= MINUTE_NANOS) {
                    base = counts[slot];
                    break;
                }
            }
            rate = (count - base) / 60.0;
        }

        @Override
        public Double getValue() {
            return rate;
        }
    }
}
