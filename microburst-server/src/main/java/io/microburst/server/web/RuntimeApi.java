package io.microburst.server.web;

import io.microburst.MicroburstCluster;
import io.microburst.metrics.TaskStats;
import io.microburst.runtime.topology.ThreadView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.apache.storm.generated.NotAliveException;

/**
 * What Storm's UI cannot show, as JSON for the pages ({@code /api/v1/topology/{id}/runtime}, Microburst's own path
 * beside Storm's): each executor thread with the tasks fused into it, its queue fill and backpressure time, and per
 * component the histograms of sampled execute latencies (bolts) and complete latencies (spouts: end to end, emit to
 * tree acked). Read from the runtime's counters, never from the executor threads. Stateless; thread-safe.
 */
final class RuntimeApi {
    private static final double[] PERCENTILES = {50, 90, 99, 99.9};
    private static final String[] PERCENTILE_KEYS = {"p50Ms", "p90Ms", "p99Ms", "p999Ms"};
    private final MicroburstCluster cluster;

    RuntimeApi(MicroburstCluster cluster) {
        this.cluster = cluster;
    }

    Map<String, Object> of(String id) throws NotAliveException {
        String name = cluster.getTopologySummary(id).get_name();
        List<Object> threads = new ArrayList<>();
        Map<String, Histogram> execute = new LinkedHashMap<>();
        Map<String, Histogram> complete = new LinkedHashMap<>();
        for (ThreadView thread : cluster.getThreadViews(name)) {
            List<Object> tasks = new ArrayList<>();
            for (TaskStats task : thread.tasks()) {
                tasks.add(Map.of("component", task.componentId(), "task", task.taskId()));
                merge(execute, task.componentId(), LatencyBuckets.snapshot(task.executeLatencies()));
                merge(complete, task.componentId(), LatencyBuckets.snapshot(task.completeLatencies()));
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", thread.name());
            row.put("spouts", thread.runsSpouts());
            row.put("tasks", tasks);
            row.put("queueCapacity", thread.queueCapacity());
            row.put("queued", thread.queuedTuples());
            row.put("backpressureMs", thread.backpressureNanos() / 1e6);
            threads.add(row);
        }
        List<Object> latencies = new ArrayList<>();
        complete.forEach((component, h) -> latencies.add(latency(component, "complete", h)));
        execute.forEach((component, h) -> latencies.add(latency(component, "execute", h)));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", name);
        json.put("threads", threads);
        json.put("latencies", latencies);
        json.put("bucketBoundsSeconds", bounds());
        return json;
    }

    private static void merge(Map<String, Histogram> into, String component, Histogram h) {
        if (h == null) {
            return;
        }
        Histogram sum = into.get(component);
        if (sum == null) {
            into.put(component, h);
        } else {
            sum.add(h);
        }
    }

    private static Map<String, Object> latency(String component, String kind, Histogram h) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("component", component);
        row.put("kind", kind);
        row.put("samples", h.getTotalCount());
        for (int i = 0; i < PERCENTILES.length; i++) {
            row.put(PERCENTILE_KEYS[i], h.getValueAtPercentile(PERCENTILES[i]) / 1e6);
        }
        row.put("maxMs", h.getMaxValue() / 1e6);
        List<Object> counts = new ArrayList<>();
        for (long c : LatencyBuckets.of(h).counts) {
            counts.add(c);
        }
        row.put("buckets", counts);
        return row;
    }

    private static List<Object> bounds() {
        List<Object> bounds = new ArrayList<>();
        for (double b : LatencyBuckets.BOUNDS_SECONDS) {
            bounds.add(Double.isInfinite(b) ? "+Inf" : b);
        }
        return bounds;
    }
}
