package org.apache.storm.metric;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.MetricSet;
import com.codahale.metrics.Reservoir;
import com.codahale.metrics.Timer;
import java.util.Map;

/**
 * The daemons' metric registry as storm-server names it: what {@code LocalCluster.getMetricRegistry()} returns and
 * {@code new LocalDRPC(registry)} takes. The metrics are kept in a Dropwizard {@link MetricRegistry}; Microburst's
 * own metrics are elsewhere (the cluster's statistics, the server's {@code /metrics}), and the daemon metrics
 * reporters ({@code storm.daemon.metrics.reporter.plugins}) are not started: there are no daemons to report on.
 *
 * <p>Thread-safe, as the Dropwizard registry.
 */
public class StormMetricsRegistry {
    private final MetricRegistry registry = new MetricRegistry();

    public Meter registerMeter(String name) {
        return registry.meter(name);
    }

    /** Registers {@code meter} under {@code name} unless a meter is there already; returns the registered one. */
    public Meter registerMeter(String name, Meter meter) {
        return registry.meter(name, () -> meter);
    }

    public Timer registerTimer(String name) {
        return registry.timer(name);
    }

    public Histogram registerHistogram(String name) {
        return registry.histogram(name);
    }

    public Histogram registerHistogram(String name, Reservoir reservoir) {
        return registry.histogram(name, () -> new Histogram(reservoir));
    }

    public <V> Gauge<V> registerGauge(final String name, Gauge<V> gauge) {
        return registry.gauge(name, () -> gauge);
    }

    public void registerAll(MetricSet metrics) {
        registry.registerAll(metrics);
    }

    /** Removes the metrics registered under the names {@code metrics} has. */
    public void removeAll(MetricSet metrics) {
        Map<String, Metric> names = metrics.getMetrics();
        registry.removeMatching((name, metric) -> names.containsKey(name));
    }

    /** The meter registered under {@code meterName}, or null. */
    public Meter getMeter(String meterName) {
        return registry.getMeters().get(meterName);
    }

    /** Starts no reporter: Microburst runs no daemons whose metrics these would report (see the class comment). */
    public void startMetricsReporters(Map<String, Object> daemonConf) {
    }

    /** Nothing to stop (see {@link #startMetricsReporters(Map)}). */
    public void stopMetricsReporters() {
    }
}
