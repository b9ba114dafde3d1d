package io.microburst.server.web;

import io.microburst.MicroburstCluster;
import io.microburst.metrics.TaskStats;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.microburst.runtime.topology.ThreadView;
import org.HdrHistogram.Histogram;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.StateSetSnapshot;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.utils.VersionInfo;

/**
 * The server's metrics in Prometheus' text format, read at each scrape from the runtime's per-task counters (never
 * from the executor threads): per topology, component and task, tuples emitted and transferred per stream, executed,
 * acked and failed per input or stream, average execute, process and complete latencies, and histograms of the
 * sampled execute and complete latencies ({@code topology.stats.sample.rate} says which tuples are timed); per
 * executor thread, its queue's capacity and fill and the time it waited for room in a consumer's full queue
 * (backpressure); per topology its executor count, uptime and status (a state set: one series per Storm status, 1 for
 * the current one, so a status change starts no new series). Every duration is in seconds. Besides: the JVM's and the
 * process' own metrics from the Prometheus client library ({@code jvm_*}, {@code process_*}) and
 * {@code microburst_build_info}.
 *
 * <p>Scrapes share answers: one computed less than {@value #SHARED_MILLIS} ms before is sent again (a {@link
 * SharedSnapshot}), so several scrapers, or a scraper and a dashboard, cost the server one scrape a second; a change
 * shows in the next second's. The JVM's deadlock gauges are read once a minute ({@link JvmCollectors}). Thread-safe.
 */
final class PrometheusMetrics {
    /** Storm's topology statuses, each a series of {@code microburst_topology_status}. */
    private static final String[] STATUSES = {"ACTIVE", "INACTIVE", "REBALANCING", "KILLED"};
    /** How long a scrape's answer is sent again to the scrapes that follow. */
    static final long SHARED_MILLIS = 1000;
    private final MicroburstCluster cluster;
    private final PrometheusTextFormatWriter writer = new PrometheusTextFormatWriter(false);
    private final JvmCollectors jvm;
    private final SharedSnapshot<byte[]> answer;
    private final InfoSnapshot buildInfo;

    PrometheusMetrics(MicroburstCluster cluster) {
        this(cluster, System::nanoTime);
    }

    /** @param nanoClock the time, as {@link System#nanoTime}, for the shared answer's and the deadlock gauges' age */
    PrometheusMetrics(MicroburstCluster cluster, LongSupplier nanoClock) {
        this.cluster = cluster;
        this.jvm = new JvmCollectors(nanoClock);
        this.answer = new SharedSnapshot<>(this::render, TimeUnit.MILLISECONDS.toNanos(SHARED_MILLIS), nanoClock);
        this.buildInfo = InfoSnapshot.builder().name("microburst_build").help("The build of Microburst serving, and "
            + "the Storm API it implements").dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder()
                .labels(Labels.of("version", BuildVersion.get(), "storm_version", VersionInfo.getVersion())).build())
            .build();
    }

    String contentType() {
        return writer.getContentType();
    }

    /** The answer to a scrape: the text of the last {@value #SHARED_MILLIS} ms, or of a new scrape. */
    byte[] answer() throws Exception {
        return answer.get();
    }

    private byte[] render() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
        writer.write(out, scrape());
        return out.toByteArray();
    }

    MetricSnapshots scrape() throws Exception {
        CounterSnapshot.Builder emitted = counter("microburst_emitted", "Tuples emitted by a task, per stream");
        CounterSnapshot.Builder transferred = counter("microburst_transferred",
            "Tuples a task's emits delivered to other tasks, per stream");
        CounterSnapshot.Builder executed = counter("microburst_executed", "Tuples a bolt task executed, per input");
        CounterSnapshot.Builder acked = counter("microburst_acked",
            "Tuples acked: by a bolt task per input, or tuple trees completed for a spout task per stream");
        CounterSnapshot.Builder failed = counter("microburst_failed", "Tuples failed, as for microburst_acked");
        GaugeSnapshot.Builder executeMs = gauge("microburst_execute_latency_average_seconds",
            "Average execute latency, per input");
        GaugeSnapshot.Builder processMs = gauge("microburst_process_latency_average_seconds",
            "Average process latency, per input");
        GaugeSnapshot.Builder completeMs = gauge("microburst_complete_latency_average_seconds",
            "Average complete latency of a spout's tuple trees, per stream");
        StateSetSnapshot.Builder status = StateSetSnapshot.builder().name("microburst_topology_status")
            .help("A topology's status: 1 for the current one");
        GaugeSnapshot.Builder executors = gauge("microburst_topology_executors", "Executors of a topology");
        GaugeSnapshot.Builder uptime = gauge("microburst_topology_uptime_seconds", "Seconds since a topology started");
        HistogramSnapshot.Builder executeHist = HistogramSnapshot.builder().name("microburst_execute_latency_seconds")
            .help("Sampled execute latencies of a bolt task, over every input");
        HistogramSnapshot.Builder completeHist = HistogramSnapshot.builder().name("microburst_complete_latency_seconds")
            .help("Sampled complete latencies (emit to tree acked) of a spout task's tuple trees");
        GaugeSnapshot.Builder queueDepth = gauge("microburst_queue_depth",
            "Tuples waiting in an executor thread's receive queue (batches count as full)");
        GaugeSnapshot.Builder queueCapacity = gauge("microburst_queue_capacity",
            "Tuples an executor thread's receive queue holds when full");
        CounterSnapshot.Builder backpressure = counter("microburst_backpressure_seconds",
            "Time an executor thread waited for room in a consumer's full queue");
        for (TopologySummary topology : cluster.getTopologySummaries()) {
            String name = topology.get_name();
            Labels topologyLabels = Labels.of("topology", name);
            StateSetSnapshot.StateSetDataPointSnapshot.Builder states = StateSetSnapshot.StateSetDataPointSnapshot
                .builder().labels(topologyLabels);
            for (String s : STATUSES) {
                states.state(s, s.equals(topology.get_status()));
            }
            status.dataPoint(states.build());
            executors.dataPoint(GaugeDataPointSnapshot.builder().labels(topologyLabels)
                .value(topology.get_num_executors()).build());
            uptime.dataPoint(GaugeDataPointSnapshot.builder().labels(topologyLabels)
                .value(topology.get_uptime_secs()).build());
            List<TaskStats> tasks;
            try {
                tasks = cluster.getTaskStats(name);
            } catch (NotAliveException gone) {
                continue;
            }
            for (TaskStats task : tasks) {
                Labels labels = Labels.of("topology", name, "component", task.componentId(),
                    "task", Integer.toString(task.taskId()));
                histogram(executeHist, labels, LatencyBuckets.snapshot(task.executeLatencies()));
                histogram(completeHist, labels, LatencyBuckets.snapshot(task.completeLatencies()));
                for (int s = 0; s < task.outStreamCount(); s++) {
                    Labels stream = labels.add("stream", task.outStream(s));
                    emitted.dataPoint(count(stream, task.emitted(s)));
                    transferred.dataPoint(count(stream, task.transferred(s)));
                    if (task.spoutAckedCount(s) > 0 || task.spoutFailedCount(s) > 0) {
                        acked.dataPoint(count(stream, task.spoutAckedCount(s)));
                        failed.dataPoint(count(stream, task.spoutFailedCount(s)));
                        completeMs.dataPoint(value(stream, task.completeMsAvg(s) / 1000));
                    }
                }
                for (int i = 0; i < task.inputCount(); i++) {
                    Labels input = labels.add("input", task.inputComponent(i) + ":" + task.inputStream(i));
                    executed.dataPoint(count(input, task.executed(i)));
                    acked.dataPoint(count(input, task.acked(i)));
                    failed.dataPoint(count(input, task.failed(i)));
                    executeMs.dataPoint(value(input, task.executeMsAvg(i) / 1000));
                    processMs.dataPoint(value(input, task.processMsAvg(i) / 1000));
                }
            }
            threads(name, queueDepth, queueCapacity, backpressure);
        }
        MetricSnapshots.Builder all = MetricSnapshots.builder();
        for (MetricSnapshot m : List.of(emitted.build(), transferred.build(), executed.build(), acked.build(),
            failed.build(), executeMs.build(), processMs.build(), completeMs.build(), executors.build(), uptime.build(),
            status.build(), executeHist.build(), completeHist.build(), queueDepth.build(), queueCapacity.build(),
            backpressure.build(), buildInfo)) {
            all.metricSnapshot(m);
        }
        for (MetricSnapshot m : jvm.scrape()) {
            all.metricSnapshot(m);
        }
        return all.build();
    }

    private void threads(String topology, GaugeSnapshot.Builder depth, GaugeSnapshot.Builder capacity,
                         CounterSnapshot.Builder backpressure) {
        List<ThreadView> threads;
        try {
            threads = cluster.getThreadViews(topology);
        } catch (NotAliveException gone) {
            return;
        }
        for (ThreadView thread : threads) {
            Labels labels = Labels.of("topology", topology, "thread", thread.name());
            depth.dataPoint(value(labels, thread.queuedTuples()));
            capacity.dataPoint(value(labels, thread.queueCapacity()));
            backpressure.dataPoint(CounterDataPointSnapshot.builder().labels(labels)
                .value(thread.backpressureNanos() / 1e9).build());
        }
    }

    private static void histogram(HistogramSnapshot.Builder into, Labels labels, Histogram latencies) {
        if (latencies == null) {
            return;
        }
        LatencyBuckets b = LatencyBuckets.of(latencies);
        into.dataPoint(HistogramDataPointSnapshot.builder().labels(labels)
            .classicHistogramBuckets(ClassicHistogramBuckets.of(LatencyBuckets.BOUNDS_SECONDS, b.counts))
            .sum(b.sumSeconds).build());
    }

    private static CounterSnapshot.Builder counter(String name, String help) {
        return CounterSnapshot.builder().name(name).help(help);
    }

    private static GaugeSnapshot.Builder gauge(String name, String help) {
        return GaugeSnapshot.builder().name(name).help(help);
    }

    private static CounterDataPointSnapshot count(Labels labels, long value) {
        return CounterDataPointSnapshot.builder().labels(labels).value(value).build();
    }

    private static GaugeDataPointSnapshot value(Labels labels, double value) {
        return GaugeDataPointSnapshot.builder().labels(labels).value(Double.isNaN(value) ? 0 : value).build();
    }
}
