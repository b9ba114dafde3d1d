package io.microburst.server.web;

import io.microburst.runtime.task.EventSampling;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.storm.generated.BoltStats;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.ExecutorStats;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.SpoutStats;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.Utils;

/**
 * Storm's UI REST {@code topology/ID/component/COMPONENT?window=&sys=}: the component's figures per window, its
 * input streams (bolts), output streams, executors (with capacity and worker log link), errors, debug options and the
 * profiling actions in progress. Stateless apart from the shared {@link DebugSampling}, {@link Profiler} and
 * {@link ConfViews}; thread-safe.
 */
final class ComponentApi {
    private final Nimbus.Iface nimbus;
    private final DebugSampling debug;
    private final Profiler profiler;
    private final ConfViews confs;

    ComponentApi(Nimbus.Iface nimbus, DebugSampling debug, Profiler profiler, ConfViews confs) {
        this.nimbus = nimbus;
        this.debug = debug;
        this.profiler = profiler;
        this.confs = confs;
    }

    Map<String, Object> component(String id, String component, String window, String sys) throws TException {
        String win = StormJson.window(window);
        boolean withSys = StormJson.sys(sys);
        TopologyInfo info = nimbus.getTopologyInfo(id);
        ComponentTotals selected = ComponentTotals.of(info, win, true).get(component);
        if (selected == null) {
            throw new NotAliveException("Topology '" + id + "' has no component '" + component + "'");
        }
        LogviewerAddress logviewer = confs.logviewer();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("user", info.get_owner());
        json.put("id", component);
        json.put("encodedId", Utils.urlEncodeUtf8(component));
        json.put("name", info.get_name());
        json.put("executors", selected.executors);
        json.put("tasks", selected.tasks);
        json.put("requestedMemOnHeap", 0.0);
        json.put("requestedMemOffHeap", 0.0);
        json.put("requestedCpu", 0.0);
        json.put("schedulerDisplayResource", true);
        json.put("topologyId", info.get_id());
        json.put("topologyStatus", info.get_status());
        json.put("encodedTopologyId", Utils.urlEncodeUtf8(info.get_id()));
        json.put("window", win);
        json.put("componentType", selected.spout ? "spout" : "bolt");
        json.put("windowHint", ComponentTotals.WINDOWS.get(win));
        EventSampling.Setting options = debug.of(id, component);
        json.put("debug", options.enabled());
        json.put("samplingPct", options.pct());
        json.put("eventLogLink", logviewer.logLink(TopologyHost.of(info),
            info.get_id() + "/" + TopologyHost.port(info) + "/events.log"));
        json.put("profilingAndDebuggingCapable", true);
        json.put("profileActionEnabled", true);
        json.put("profilerActive", profiler.active(id, logviewer));
        List<Object> windows = new ArrayList<>();
        for (String w : ComponentTotals.WINDOWS.keySet()) {
            ComponentTotals c = ComponentTotals.of(info, w, withSys).get(component);
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("windowPretty", ComponentTotals.WINDOWS.get(w));
            s.put("window", w);
            TopologyApi.putCounts(s, c != null ? c : selected);
            windows.add(s);
        }
        json.put(selected.spout ? "spoutSummary" : "boltStats", windows);
        if (!selected.spout) {
            json.put("inputStats", inputStats(info, component, win, withSys));
        }
        json.put("outputStats", outputStats(info, component, win, withSys));
        json.put("executorStats", executorStats(info, component, win, logviewer));
        List<Object> errors = new ArrayList<>();
        // oldest first, as Storm's UI sorts them
        selected.errors.stream().sorted(Comparator.comparingInt(ErrorInfo::get_error_time_secs))
            .forEach(e -> errors.add(StormJson.error(e, info.get_id(), logviewer)));
        json.put("componentErrors", errors);
        return json;
    }

    /** Per input (component and stream), a bolt's executed, acked, failed and latencies, over its executors. */
    private static List<Object> inputStats(TopologyInfo info, String component, String window, boolean sys) {
        Map<GlobalStreamId, double[]> byInput = new TreeMap<>();
        for (ExecutorSummary e : info.get_executors()) {
            ExecutorStats stats = e.get_stats();
            if (!component.equals(e.get_component_id()) || stats == null || stats.get_specific() == null
                || !stats.get_specific().is_set_bolt()) {
                continue;
            }
            BoltStats b = stats.get_specific().get_bolt();
            Map<GlobalStreamId, Long> executed = inWindow(b.get_executed(), window);
            Map<GlobalStreamId, Long> acked = inWindow(b.get_acked(), window);
            Map<GlobalStreamId, Long> failed = inWindow(b.get_failed(), window);
            Map<GlobalStreamId, Double> execMs = inWindow(b.get_execute_ms_avg(), window);
            Map<GlobalStreamId, Double> procMs = inWindow(b.get_process_ms_avg(), window);
            Set<GlobalStreamId> inputs = new HashSet<>(executed.keySet());
            inputs.addAll(acked.keySet());
            inputs.addAll(failed.keySet());
            for (GlobalStreamId in : inputs) {
                double[] sums = byInput.computeIfAbsent(in, k -> new double[5]);
                long ex = executed.getOrDefault(in, 0L);
                long ack = acked.getOrDefault(in, 0L);
                sums[0] += ex;
                sums[1] += ack;
                sums[2] += failed.getOrDefault(in, 0L);
                sums[3] += ex * execMs.getOrDefault(in, 0.0);
                sums[4] += ack * procMs.getOrDefault(in, 0.0);
            }
        }
        List<Object> rows = new ArrayList<>();
        byInput.forEach((in, sums) -> {
            if (sys || !Utils.isSystemId(in.get_streamId())) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("component", in.get_componentId());
                row.put("encodedComponentId", Utils.urlEncodeUtf8(in.get_componentId()));
                row.put("stream", in.get_streamId());
                row.put("executeLatency", StormJson.decimal(sums[0] == 0 ? 0 : sums[3] / sums[0]));
                row.put("processLatency", StormJson.decimal(sums[1] == 0 ? 0 : sums[4] / sums[1]));
                row.put("executed", (long) sums[0]);
                row.put("acked", (long) sums[1]);
                row.put("failed", (long) sums[2]);
                rows.add(row);
            }
        });
        return rows;
    }

    private static <K, V> Map<K, V> inWindow(Map<String, Map<K, V>> byWindow, String window) {
        Map<K, V> values = byWindow == null ? null : byWindow.get(window);
        return values == null ? Map.of() : values;
    }

    /**
     * Per output stream, emitted and transferred over the component's executors; for a spout also, as Storm's, the
     * trees rooted on that stream acked and failed and their complete latency (weighted by acked).
     */
    private static List<Object> outputStats(TopologyInfo info, String component, String window, boolean sys) {
        Map<String, double[]> byStream = new TreeMap<>();
        boolean spout = false;
        for (ExecutorSummary e : info.get_executors()) {
            ExecutorStats stats = e.get_stats();
            if (!component.equals(e.get_component_id()) || stats == null) {
                continue;
            }
            inWindow(stats.get_emitted(), window).forEach((s, n) -> sums(byStream, s)[0] += n);
            inWindow(stats.get_transferred(), window).forEach((s, n) -> sums(byStream, s)[1] += n);
            if (stats.get_specific() != null && stats.get_specific().is_set_spout()) {
                spout = true;
                SpoutStats s = stats.get_specific().get_spout();
                Map<String, Double> completeMs = inWindow(s.get_complete_ms_avg(), window);
                inWindow(s.get_acked(), window).forEach((stream, n) -> {
                    sums(byStream, stream)[2] += n;
                    sums(byStream, stream)[4] += n * completeMs.getOrDefault(stream, 0.0);
                });
                inWindow(s.get_failed(), window).forEach((stream, n) -> sums(byStream, stream)[3] += n);
            }
        }
        List<Object> rows = new ArrayList<>();
        boolean isSpout = spout;
        byStream.forEach((stream, sums) -> {
            if (sys || !Utils.isSystemId(stream)) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("stream", stream);
                row.put("emitted", (long) sums[0]);
                row.put("transferred", (long) sums[1]);
                if (isSpout) {
                    row.put("completeLatency", StormJson.decimal(sums[2] == 0 ? 0 : sums[4] / sums[2]));
                    row.put("acked", (long) sums[2]);
                    row.put("failed", (long) sums[3]);
                }
                rows.add(row);
            }
        });
        return rows;
    }

    private static double[] sums(Map<String, double[]> byStream, String stream) {
        return byStream.computeIfAbsent(stream, k -> new double[5]);
    }

    private static List<Object> executorStats(TopologyInfo info, String component, String window,
                                               LogviewerAddress logviewer) {
        List<Object> rows = new ArrayList<>();
        for (ExecutorSummary e : info.get_executors()) {
            if (!component.equals(e.get_component_id())) {
                continue;
            }
            TopologyInfo one = new TopologyInfo(info);
            one.set_executors(List.of(e));
            one.set_errors(new HashMap<>());
            ComponentTotals c = ComponentTotals.of(one, window, true).get(component);
            String id = "[" + e.get_executor_info().get_task_start() + "-" + e.get_executor_info().get_task_end() + "]";
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", id);
            row.put("encodedId", Utils.urlEncodeUtf8(id));
            row.put("uptime", StormJson.prettyUptime(e.get_uptime_secs()));
            row.put("uptimeSeconds", e.get_uptime_secs());
            row.put("host", e.get_host());
            row.put("port", e.get_port());
            row.put("workerLogLink", logviewer.workerLogLink(e.get_host(), info.get_id(), e.get_port()));
            TopologyApi.putCounts(row, c);
            rows.add(row);
        }
        return rows;
    }
}
