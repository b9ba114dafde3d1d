package io.microburst.server.web;

import io.microburst.MicroburstCluster;
import io.microburst.metrics.LatencyHistogram;
import io.microburst.metrics.TaskStats;
import io.microburst.runtime.topology.ThreadView;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.StateSetSnapshot;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.storm.generated.TopologySummary;

/**
 * For tests: the {@code microburst_*} families of a scrape as the Prometheus client library's model and writer make
 * them (as {@code /metrics} made them before it wrote them itself), from the same counters, so that a test can hold
 * {@link PrometheusMetrics}' own text to the client's.
 */
final class ClientWriterReference {
    private ClientWriterReference() {
    }

    static String text(MicroburstCluster cluster) throws Exception {
        CounterSnapshot.Builder emitted = counter("microburst_emitted");
        CounterSnapshot.Builder transferred = counter("microburst_transferred");
        CounterSnapshot.Builder executed = counter("microburst_executed");
        CounterSnapshot.Builder acked = counter("microburst_acked");
        CounterSnapshot.Builder failed = counter("microburst_failed");
        CounterSnapshot.Builder backpressure = counter("microburst_backpressure_seconds");
        GaugeSnapshot.Builder executeAvg = gauge("microburst_execute_latency_average_seconds");
        GaugeSnapshot.Builder processAvg = gauge("microburst_process_latency_average_seconds");
        GaugeSnapshot.Builder completeAvg = gauge("microburst_complete_latency_average_seconds");
        GaugeSnapshot.Builder executors = gauge("microburst_topology_executors");
        GaugeSnapshot.Builder depth = gauge("microburst_queue_depth");
        GaugeSnapshot.Builder capacity = gauge("microburst_queue_capacity");
        StateSetSnapshot.Builder status = StateSetSnapshot.builder().name("microburst_topology_status");
        HistogramSnapshot.Builder executeHist = HistogramSnapshot.builder().name("microburst_execute_latency_seconds");
        HistogramSnapshot.Builder completeHist = HistogramSnapshot.builder()
            .name("microburst_complete_latency_seconds");
        for (TopologySummary topology : cluster.getTopologySummaries()) {
            String name = topology.get_name();
            StateSetSnapshot.StateSetDataPointSnapshot.Builder states = StateSetSnapshot.StateSetDataPointSnapshot
                .builder().labels(Labels.of("topology", name));
            for (String s : List.of("ACTIVE", "INACTIVE", "REBALANCING", "KILLED")) {
                states.state(s, s.equals(topology.get_status()));
            }
            status.dataPoint(states.build());
            executors.dataPoint(value(Labels.of("topology", name), topology.get_num_executors()));
            for (TaskStats task : cluster.getTaskStats(name)) {
                Labels labels = Labels.of("topology", name, "component", task.componentId(), "task",
                    Integer.toString(task.taskId()));
                histogram(executeHist, labels, task.executeLatencies());
                histogram(completeHist, labels, task.completeLatencies());
                for (int s = 0; s < task.outStreamCount(); s++) {
                    Labels stream = labels.add("stream", task.outStream(s));
                    emitted.dataPoint(count(stream, task.emitted(s)));
                    transferred.dataPoint(count(stream, task.transferred(s)));
                    if (task.spoutAckedCount(s) > 0 || task.spoutFailedCount(s) > 0) {
                        acked.dataPoint(count(stream, task.spoutAckedCount(s)));
                        failed.dataPoint(count(stream, task.spoutFailedCount(s)));
                        completeAvg.dataPoint(value(stream, task.completeMsAvg(s) / 1000));
                    }
                }
                for (int i = 0; i < task.inputCount(); i++) {
                    Labels input = labels.add("input", task.inputComponent(i) + ":" + task.inputStream(i));
                    executed.dataPoint(count(input, task.executed(i)));
                    acked.dataPoint(count(input, task.acked(i)));
                    failed.dataPoint(count(input, task.failed(i)));
                    executeAvg.dataPoint(value(input, task.executeMsAvg(i) / 1000));
                    processAvg.dataPoint(value(input, task.processMsAvg(i) / 1000));
                }
            }
            for (ThreadView thread : cluster.getThreadViews(name)) {
                Labels labels = Labels.of("topology", name, "thread", thread.name());
                depth.dataPoint(value(labels, thread.queuedTuples()));
                capacity.dataPoint(value(labels, thread.queueCapacity()));
                backpressure.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels)
                    .value(thread.backpressureNanos() / 1e9).build());
            }
        }
        MetricSnapshots all = MetricSnapshots.of(emitted.build(), transferred.build(), executed.build(), acked.build(),
            failed.build(), backpressure.build(), executeAvg.build(), processAvg.build(), completeAvg.build(),
            executors.build(), depth.build(), capacity.build(), status.build(), executeHist.build(),
            completeHist.build());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new PrometheusTextFormatWriter(false).write(out, all);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static void histogram(HistogramSnapshot.Builder into, Labels labels, LatencyHistogram latencies) {
        if (latencies == null) {
            return;
        }
        LatencyBuckets b = LatencyBuckets.of(latencies.snapshot());
        into.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder().labels(labels)
            .classicHistogramBuckets(ClassicHistogramBuckets.of(LatencyBuckets.BOUNDS_SECONDS, b.counts))
            .sum(b.sumSeconds).build());
    }

    private static CounterSnapshot.Builder counter(String name) {
        return CounterSnapshot.builder().name(name).help("h");
    }

    private static GaugeSnapshot.Builder gauge(String name) {
        return GaugeSnapshot.builder().name(name).help("h");
    }

    private static CounterSnapshot.CounterDataPointSnapshot count(Labels labels, long value) {
        return CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(value).build();
    }

    private static GaugeSnapshot.GaugeDataPointSnapshot value(Labels labels, double value) {
        return GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(Double.isNaN(value) ? 0 : value)
            .build();
    }
}
