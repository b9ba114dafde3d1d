package io.microburst.server.web;

import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The Prometheus client library's JVM and process collectors ({@code jvm_*}, {@code process_*}), in a registry of
 * their own so that servers in one JVM (tests) do not share one. Every metric is read at each scrape but the two
 * deadlock gauges, {@code jvm_threads_deadlocked} and {@code jvm_threads_deadlocked_monitor}: the JVM answers them by
 * stopping every thread at a safepoint and walking their locks, which under load took 20 to 60 ms each, all executor
 * threads standing still meanwhile; they are read at most once a {@value #DEADLOCK_SECONDS} seconds and their last
 * values repeated in between (a deadlock does not go away). Thread-safe: scraping threads.
 */
final class JvmCollectors {
    static final long DEADLOCK_SECONDS = 60;
    private static final Set<String> DEADLOCKS = Set.of("jvm_threads_deadlocked", "jvm_threads_deadlocked_monitor");
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final SharedSnapshot<MetricSnapshots> deadlocks;

    JvmCollectors(LongSupplier nanoClock) {
        JvmMetrics.builder().register(registry);
        this.deadlocks = new SharedSnapshot<>(() -> registry.scrape(DEADLOCKS::contains),
            TimeUnit.SECONDS.toNanos(DEADLOCK_SECONDS), nanoClock);
    }

    /** Every JVM and process metric: the deadlock gauges as last read, the others now. */
    List<MetricSnapshot> scrape() throws Exception {
        List<MetricSnapshot> all = new ArrayList<>();
        for (MetricSnapshot m : registry.scrape(name -> !DEADLOCKS.contains(name))) {
            all.add(m);
        }
        for (MetricSnapshot m : deadlocks.get()) {
            all.add(m);
        }
        return all;
    }
}
