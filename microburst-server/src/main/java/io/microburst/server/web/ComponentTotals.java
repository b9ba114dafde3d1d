package io.microburst.server.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.BoltStats;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.ExecutorStats;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.SpoutStats;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.utils.Utils;

/**
 * One component's statistics in one of Storm's windows, summed over its executors from a {@link TopologyInfo}, as the
 * Storm UI shows them: counts over user streams (system streams, whose names start with {@code __}, left out),
 * latencies averaged weighted by the counts they belong to. Not thread-safe; built and read by one request.
 */
final class ComponentTotals {
    /** Storm's windows, in the UI's order, with its labels. */
    static final Map<String, String> WINDOWS = windows();

    final String id;
    final boolean spout;
    int executors;
    int tasks;
    long emitted;
    long transferred;
    long acked;
    long failed;
    long executed;
    private double executeWeighted;
    private double processWeighted;
    private double completeWeighted;
    /** Storm's capacity: the highest of its executors' (executed × execute latency over the last ten minutes). */
    double capacity;
    final List<ErrorInfo> errors = new ArrayList<>();
    private final boolean sys;

    private ComponentTotals(String id, boolean spout, boolean sys) {
        this.id = id;
        this.spout = spout;
        this.sys = sys;
    }

    /** Per component id (spouts first, then bolts, each sorted), the totals of {@code window}. */
    static Map<String, ComponentTotals> of(TopologyInfo info, String window) {
        return of(info, window, false);
    }

    /**
     * As {@link #of(TopologyInfo, String)}; with {@code sys} (Storm's {@code ?sys=1}) the system components
     * ({@code __acker}, ...) and streams are counted too.
     */
    static Map<String, ComponentTotals> of(TopologyInfo info, String window, boolean sys) {
        Map<String, ComponentTotals> spouts = new java.util.TreeMap<>();
        Map<String, ComponentTotals> bolts = new java.util.TreeMap<>();
        for (ExecutorSummary executor : info.get_executors()) {
            String component = executor.get_component_id();
            if (!sys && Utils.isSystemId(component)) {
                continue;
            }
            ExecutorStats stats = executor.get_stats();
            boolean spout = stats != null && stats.get_specific() != null && stats.get_specific().is_set_spout();
            ComponentTotals totals = (spout ? spouts : bolts).computeIfAbsent(component,
                c -> new ComponentTotals(c, spout, sys));
            totals.add(executor, window);
        }
        if (info.get_errors() != null) {
            for (Map.Entry<String, List<ErrorInfo>> e : info.get_errors().entrySet()) {
                ComponentTotals totals = spouts.containsKey(e.getKey()) ? spouts.get(e.getKey()) : bolts.get(e.getKey());
                if (totals != null) {
                    totals.errors.addAll(e.getValue());
                }
            }
        }
        Map<String, ComponentTotals> all = new LinkedHashMap<>(spouts);
        all.putAll(bolts);
        return all;
    }

    /** As {@link #topology(TopologyInfo, String, boolean)} without the system components. */
    static ComponentTotals topology(TopologyInfo info, String window) {
        return topology(info, window, false);
    }

    /**
     * The topology's own figures in a window, as Storm counts them: emits and transfers of every executor, acks,
     * fails and complete latency of its spouts' tuple trees.
     */
    static ComponentTotals topology(TopologyInfo info, String window, boolean sys) {
        ComponentTotals sum = new ComponentTotals(info.get_name(), true, sys);
        for (ComponentTotals c : of(info, window, sys).values()) {
            sum.emitted += c.emitted;
            sum.transferred += c.transferred;
            if (c.spout) {
                sum.acked += c.acked;
                sum.failed += c.failed;
                sum.completeWeighted += c.completeWeighted;
            }
        }
        return sum;
    }

    void add(ExecutorSummary executor, String window) {
        executors++;
        tasks += executor.get_executor_info().get_task_end() - executor.get_executor_info().get_task_start() + 1;
        ExecutorStats stats = executor.get_stats();
        if (stats == null) {
            return;
        }
        emitted += streamSum(stats.get_emitted(), window);
        transferred += streamSum(stats.get_transferred(), window);
        if (stats.get_specific() == null) {
            return;
        }
        if (stats.get_specific().is_set_spout()) {
            SpoutStats s = stats.get_specific().get_spout();
            acked += streamSum(s.get_acked(), window);
            failed += streamSum(s.get_failed(), window);
            completeWeighted += weighted(s.get_complete_ms_avg(), s.get_acked(), window);
        } else if (stats.get_specific().is_set_bolt()) {
            BoltStats b = stats.get_specific().get_bolt();
            acked += inputSum(b.get_acked(), window);
            failed += inputSum(b.get_failed(), window);
            executed += inputSum(b.get_executed(), window);
            executeWeighted += inputWeighted(b.get_execute_ms_avg(), b.get_executed(), window);
            processWeighted += inputWeighted(b.get_process_ms_avg(), b.get_acked(), window);
            capacity = Math.max(capacity, capacity(b, executor.get_uptime_secs()));
        }
    }

    /**
     * One executor's capacity as Storm computes it: the time it spent executing over the last ten minutes (or its
     * uptime, if shorter), every input stream's executed count times its average execute latency, as a fraction.
     */
    private static double capacity(BoltStats b, int uptimeSecs) {
        int window = Math.min(uptimeSecs, 600);
        if (window <= 0 || b.get_executed() == null || b.get_execute_ms_avg() == null) {
            return 0;
        }
        Map<GlobalStreamId, Long> counts = b.get_executed().get("600");
        Map<GlobalStreamId, Double> latencies = b.get_execute_ms_avg().get("600");
        if (counts == null || latencies == null) {
            return 0;
        }
        double busyMs = 0;
        for (Map.Entry<GlobalStreamId, Long> e : counts.entrySet()) {
            busyMs += e.getValue() * latencies.getOrDefault(e.getKey(), 0.0);
        }
        return busyMs / (1000.0 * window);
    }

    double executeLatencyMs() {
        return executed == 0 ? 0 : executeWeighted / executed;
    }

    double processLatencyMs() {
        return acked == 0 ? 0 : processWeighted / acked;
    }

    double completeLatencyMs() {
        return acked == 0 ? 0 : completeWeighted / acked;
    }

    ErrorInfo lastError() {
        ErrorInfo last = null;
        for (ErrorInfo e : errors) {
            if (last == null || e.get_error_time_secs() >= last.get_error_time_secs()) {
                last = e;
            }
        }
        return last;
    }

    private long streamSum(Map<String, Map<String, Long>> byWindow, String window) {
        Map<String, Long> byStream = byWindow == null ? null : byWindow.get(window);
        long sum = 0;
        if (byStream != null) {
            for (Map.Entry<String, Long> e : byStream.entrySet()) {
                if (sys || !Utils.isSystemId(e.getKey())) {
                    sum += e.getValue();
                }
            }
        }
        return sum;
    }

    private double weighted(Map<String, Map<String, Double>> avg, Map<String, Map<String, Long>> counts,
                                   String window) {
        Map<String, Double> a = avg == null ? null : avg.get(window);
        Map<String, Long> c = counts == null ? null : counts.get(window);
        double sum = 0;
        if (a != null && c != null) {
            for (Map.Entry<String, Double> e : a.entrySet()) {
                if (sys || !Utils.isSystemId(e.getKey())) {
                    sum += e.getValue() * c.getOrDefault(e.getKey(), 0L);
                }
            }
        }
        return sum;
    }

    private long inputSum(Map<String, Map<GlobalStreamId, Long>> byWindow, String window) {
        Map<GlobalStreamId, Long> byInput = byWindow == null ? null : byWindow.get(window);
        long sum = 0;
        if (byInput != null) {
            for (Map.Entry<GlobalStreamId, Long> e : byInput.entrySet()) {
                if (sys || !Utils.isSystemId(e.getKey().get_streamId())) {
                    sum += e.getValue();
                }
            }
        }
        return sum;
    }

    private double inputWeighted(Map<String, Map<GlobalStreamId, Double>> avg,
                                        Map<String, Map<GlobalStreamId, Long>> counts, String window) {
        Map<GlobalStreamId, Double> a = avg == null ? null : avg.get(window);
        Map<GlobalStreamId, Long> c = counts == null ? null : counts.get(window);
        double sum = 0;
        if (a != null && c != null) {
            for (Map.Entry<GlobalStreamId, Double> e : a.entrySet()) {
                if (sys || !Utils.isSystemId(e.getKey().get_streamId())) {
                    sum += e.getValue() * c.getOrDefault(e.getKey(), 0L);
                }
            }
        }
        return sum;
    }

    private static Map<String, String> windows() {
        Map<String, String> windows = new LinkedHashMap<>();
        windows.put("600", "10m 0s");
        windows.put("10800", "3h 0m 0s");
        windows.put("86400", "1d 0h 0m 0s");
        windows.put(":all-time", "All time");
        return windows;
    }
}
