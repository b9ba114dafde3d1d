package io.microburst.server.web;

import io.microburst.MicroburstCluster;
import io.microburst.metrics.TaskStats;
import io.microburst.runtime.topology.ThreadView;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
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
 * shows in the next second's. The JVM's deadlock gauges are read once a minute ({@link JvmCollectors}). The
 * {@code microburst_*} families are written here ({@link SeriesText}) with each task's labels made once for its life
 * ({@link TaskSeries}) and each latency histogram's lines made again only when it has new samples ({@link
 * HistogramLines}); the JVM's, the process' and the build's through the client library's writer. Thread-safe.
 */
final class PrometheusMetrics {
    /** Storm's topology statuses, each a series of {@code microburst_topology_status}, in the order written. */
    private static final String[] STATUSES = {"ACTIVE", "INACTIVE", "KILLED", "REBALANCING"};
    /** How long a scrape's answer is sent again to the scrapes that follow. */
    static final long SHARED_MILLIS = 1000;
    private static final byte[] ACKED = SeriesText.name("microburst_acked_total");
    private static final byte[] BACKPRESSURE = SeriesText.name("microburst_backpressure_seconds_total");
    private static final byte[] COMPLETE_AVG = SeriesText.name("microburst_complete_latency_average_seconds");
    private static final byte[] EMITTED = SeriesText.name("microburst_emitted_total");
    private static final byte[] EXECUTE_AVG = SeriesText.name("microburst_execute_latency_average_seconds");
    private static final byte[] EXECUTED = SeriesText.name("microburst_executed_total");
    private static final byte[] FAILED = SeriesText.name("microburst_failed_total");
    private static final byte[] PROCESS_AVG = SeriesText.name("microburst_process_latency_average_seconds");
    private static final byte[] QUEUE_CAPACITY = SeriesText.name("microburst_queue_capacity");
    private static final byte[] QUEUE_DEPTH = SeriesText.name("microburst_queue_depth");
    private static final byte[] EXECUTORS = SeriesText.name("microburst_topology_executors");
    private static final byte[] STATUS = SeriesText.name("microburst_topology_status");
    private static final byte[] UPTIME = SeriesText.name("microburst_topology_uptime_seconds");
    private static final byte[] TRANSFERRED = SeriesText.name("microburst_transferred_total");

    private final MicroburstCluster cluster;
    private final PrometheusTextFormatWriter writer = new PrometheusTextFormatWriter(false);
    private final JvmCollectors jvm;
    private final SharedSnapshot<byte[]> answer;
    private final byte[] buildInfo;
    /** Each live task's series, from the last scrape; guarded by {@link #answer}'s lock (one scrape at a time). */
    private Map<TaskStats, TaskSeries> series = new IdentityHashMap<>();
    /** Latency histograms read (walked into buckets) by all scrapes so far; guarded as {@link #series}. */
    private long histogramsRead;
    private int lastSize = 1 << 16;

    PrometheusMetrics(MicroburstCluster cluster) {
        this(cluster, System::nanoTime);
    }

    /** @param nanoClock the time, as {@link System#nanoTime}, for the shared answer's and the deadlock gauges' age */
    PrometheusMetrics(MicroburstCluster cluster, LongSupplier nanoClock) {
        this.cluster = cluster;
        this.jvm = new JvmCollectors(nanoClock);
        this.answer = new SharedSnapshot<>(this::render, TimeUnit.MILLISECONDS.toNanos(SHARED_MILLIS), nanoClock);
        try {
            this.buildInfo = clientText(MetricSnapshots.of(InfoSnapshot.builder().name("microburst_build")
                .help("The build of Microburst serving, and the Storm API it implements")
                .dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder().labels(Labels.of("version",
                    BuildVersion.get(), "storm_version", VersionInfo.getVersion())).build()).build()));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the build's metric", e);
        }
    }

    String contentType() {
        return writer.getContentType();
    }

    /** The answer to a scrape: the text of the last {@value #SHARED_MILLIS} ms, or of a new scrape. */
    byte[] answer() throws Exception {
        return answer.get();
    }

    /** Latency histograms walked into buckets by the scrapes so far (those with new samples since the last). */
    long histogramsRead() {
        synchronized (answer) {
            return histogramsRead;
        }
    }

    /** A scrape's text; called by {@link #answer}'s {@link SharedSnapshot}, under its lock. */
    private byte[] render() throws Exception {
        List<TopologyRows> topologies = new ArrayList<>();
        Map<TaskStats, TaskSeries> kept = new IdentityHashMap<>();
        for (TopologySummary summary : cluster.getTopologySummaries()) {
            topologies.add(rows(summary, kept));
        }
        series = kept; // tasks gone since the last scrape are forgotten
        List<TaskSeries> tasks = new ArrayList<>();
        topologies.forEach(t -> tasks.addAll(t.tasks));
        SeriesText out = new SeriesText(lastSize + 4096);
        acked(out, tasks);
        threads(out, topologies);
        out.families(buildInfo);
        tasks(out, tasks);
        topologies(out, topologies, tasks);
        MetricSnapshots.Builder jvmSnapshots = MetricSnapshots.builder();
        jvm.scrape().forEach(jvmSnapshots::metricSnapshot);
        out.families(clientText(jvmSnapshots.build()));
        byte[] text = out.toByteArray();
        lastSize = text.length;
        return text;
    }

    /** A topology's tasks (their series kept in {@code kept}) and threads, with their histograms brought up to date. */
    private TopologyRows rows(TopologySummary summary, Map<TaskStats, TaskSeries> kept) {
        String name = summary.get_name();
        List<TaskSeries> tasks = new ArrayList<>();
        List<ThreadView> threads = List.of();
        try {
            for (TaskStats task : cluster.getTaskStats(name)) {
                TaskSeries s = series.get(task);
                if (s == null) {
                    s = new TaskSeries(name, task);
                }
                histogramsRead += s.update();
                kept.put(task, s);
                tasks.add(s);
            }
            threads = cluster.getThreadViews(name);
        } catch (NotAliveException gone) {
            // killed meanwhile: its summary's series only, as before it had tasks
        }
        byte[][] threadLabels = new byte[threads.size()][];
        for (int i = 0; i < threadLabels.length; i++) {
            threadLabels[i] = SeriesText.labels(false, "thread", threads.get(i).name(), "topology", name);
        }
        return new TopologyRows(summary, SeriesText.labels(false, "topology", name), tasks, threads, threadLabels);
    }

    private static void acked(SeriesText out, List<TaskSeries> tasks) {
        out.family("microburst_acked_total", "counter",
            "Tuples acked: by a bolt task per input, or tuple trees completed for a spout task per stream");
        for (TaskSeries s : tasks) {
            for (int st = 0; st < s.streams.length; st++) {
                if (s.acking[st]) {
                    out.sample(ACKED, s.streams[st], s.task.spoutAckedCount(st));
                }
            }
            for (int i = 0; i < s.inputs.length; i++) {
                out.sample(ACKED, s.inputs[i], s.task.acked(i));
            }
        }
    }

    /** The families per task after {@code microburst_build_info}, in the order of their names. */
    private static void tasks(SeriesText out, List<TaskSeries> tasks) {
        out.family("microburst_complete_latency_average_seconds", "gauge",
            "Average complete latency of a spout's tuple trees, per stream");
        for (TaskSeries s : tasks) {
            for (int st = 0; st < s.streams.length; st++) {
                if (s.acking[st]) {
                    out.sample(COMPLETE_AVG, s.streams[st], seconds(s.task.completeMsAvg(st)));
                }
            }
        }
        out.family("microburst_complete_latency_seconds", "histogram",
            "Sampled complete latencies (emit to tree acked) of a spout task's tuple trees");
        tasks.forEach(s -> s.complete.writeTo(out));
        out.family("microburst_emitted_total", "counter", "Tuples emitted by a task, per stream");
        for (TaskSeries s : tasks) {
            for (int st = 0; st < s.streams.length; st++) {
                out.sample(EMITTED, s.streams[st], s.task.emitted(st));
            }
        }
        out.family("microburst_execute_latency_average_seconds", "gauge", "Average execute latency, per input");
        for (TaskSeries s : tasks) {
            for (int i = 0; i < s.inputs.length; i++) {
                out.sample(EXECUTE_AVG, s.inputs[i], seconds(s.task.executeMsAvg(i)));
            }
        }
        out.family("microburst_execute_latency_seconds", "histogram",
            "Sampled execute latencies of a bolt task, over every input");
        tasks.forEach(s -> s.execute.writeTo(out));
        out.family("microburst_executed_total", "counter", "Tuples a bolt task executed, per input");
        for (TaskSeries s : tasks) {
            for (int i = 0; i < s.inputs.length; i++) {
                out.sample(EXECUTED, s.inputs[i], s.task.executed(i));
            }
        }
        out.family("microburst_failed_total", "counter", "Tuples failed, as for microburst_acked");
        for (TaskSeries s : tasks) {
            for (int st = 0; st < s.streams.length; st++) {
                if (s.acking[st]) {
                    out.sample(FAILED, s.streams[st], s.task.spoutFailedCount(st));
                }
            }
            for (int i = 0; i < s.inputs.length; i++) {
                out.sample(FAILED, s.inputs[i], s.task.failed(i));
            }
        }
        out.family("microburst_process_latency_average_seconds", "gauge", "Average process latency, per input");
        for (TaskSeries s : tasks) {
            for (int i = 0; i < s.inputs.length; i++) {
                out.sample(PROCESS_AVG, s.inputs[i], seconds(s.task.processMsAvg(i)));
            }
        }
    }

    /** The families per executor thread. */
    private static void threads(SeriesText out, List<TopologyRows> topologies) {
        out.family("microburst_backpressure_seconds_total", "counter",
            "Time an executor thread waited for room in a consumer's full queue");
        for (TopologyRows t : topologies) {
            for (int i = 0; i < t.threads.size(); i++) {
                out.sample(BACKPRESSURE, t.threadLabels[i], t.threads.get(i).backpressureNanos() / 1e9);
            }
        }
    }

    /** The queues' families, the topologies' and the last of the tasks' (in the order of their names). */
    private static void topologies(SeriesText out, List<TopologyRows> topologies, List<TaskSeries> tasks) {
        out.family("microburst_queue_capacity", "gauge", "Tuples an executor thread's receive queue holds when full");
        for (TopologyRows t : topologies) {
            for (int i = 0; i < t.threads.size(); i++) {
                out.sample(QUEUE_CAPACITY, t.threadLabels[i], (double) t.threads.get(i).queueCapacity());
            }
        }
        out.family("microburst_queue_depth", "gauge",
            "Tuples waiting in an executor thread's receive queue (batches count as full)");
        for (TopologyRows t : topologies) {
            for (int i = 0; i < t.threads.size(); i++) {
                out.sample(QUEUE_DEPTH, t.threadLabels[i], (double) t.threads.get(i).queuedTuples());
            }
        }
        out.family("microburst_topology_executors", "gauge", "Executors of a topology");
        topologies.forEach(t -> out.sample(EXECUTORS, t.labels, (double) t.summary.get_num_executors()));
        out.family("microburst_topology_status", "gauge", "A topology's status: 1 for the current one");
        for (TopologyRows t : topologies) {
            for (String status : STATUSES) {
                out.sample(STATUS, t.statusLabels(status), status.equals(t.summary.get_status()) ? "1" : "0");
            }
        }
        out.family("microburst_topology_uptime_seconds", "gauge", "Seconds since a topology started");
        topologies.forEach(t -> out.sample(UPTIME, t.labels, (double) t.summary.get_uptime_secs()));
        out.family("microburst_transferred_total", "counter",
            "Tuples a task's emits delivered to other tasks, per stream");
        for (TaskSeries s : tasks) {
            for (int st = 0; st < s.streams.length; st++) {
                out.sample(TRANSFERRED, s.streams[st], s.task.transferred(st));
            }
        }
    }

    private static double seconds(double millis) {
        return Double.isNaN(millis) ? 0 : millis / 1000;
    }

    private byte[] clientText(MetricSnapshots snapshots) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 14);
        writer.write(out, snapshots);
        return out.toByteArray();
    }

    /** One topology in a scrape: its summary, label block, tasks' series, executor threads and their labels. */
    private record TopologyRows(TopologySummary summary, byte[] labels, List<TaskSeries> tasks,
                                List<ThreadView> threads, byte[][] threadLabels) {
        byte[] statusLabels(String status) {
            return SeriesText.labels(false, "topology", summary.get_name(), "microburst_topology_status", status);
        }
    }
}
