package io.microburst.server.web;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.ExecutorStats;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.Utils;
import org.apache.storm.utils.VersionInfo;

/**
 * The Storm UI REST API (Storm 2.8's {@code STORM-UI-REST-API.md}) answered from a Nimbus: the same paths, field
 * names and shapes, so that scripts and dashboards written for Storm's UI keep working. Everything runs on one machine,
 * so there is one supervisor, one worker per topology and no resource scheduler. Stateless; thread-safe.
 */
final class RestApi {
    private static final String HOST = "localhost";
    private final Nimbus.Iface nimbus;

    RestApi(Nimbus.Iface nimbus) {
        this.nimbus = nimbus;
    }

    Map<String, Object> clusterSummary() throws TException {
        ClusterSummary cluster = nimbus.getClusterInfo();
        int executors = 0;
        int tasks = 0;
        for (TopologySummary t : cluster.get_topologies()) {
            executors += t.get_num_executors();
            tasks += t.get_num_tasks();
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("stormVersion", VersionInfo.getVersion());
        json.put("supervisors", 1);
        json.put("topologies", cluster.get_topologies_size());
        json.put("slotsTotal", cluster.get_topologies_size());
        json.put("slotsUsed", cluster.get_topologies_size());
        json.put("slotsFree", 0);
        json.put("executorsTotal", executors);
        json.put("tasksTotal", tasks);
        json.put("schedulerDisplayResource", false);
        json.put("nimbusUptimeSeconds", cluster.get_nimbuses().isEmpty() ? 0 : cluster.get_nimbuses().get(0).get_uptime_secs());
        return json;
    }

    Map<String, Object> topologySummary() throws TException {
        List<Object> topologies = new ArrayList<>();
        for (TopologySummary t : nimbus.getClusterInfo().get_topologies()) {
            topologies.add(summary(t));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("topologies", topologies);
        json.put("schedulerDisplayResource", false);
        return json;
    }

    private static Map<String, Object> summary(TopologySummary t) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", t.get_id());
        json.put("encodedId", Utils.urlEncodeUtf8(t.get_id()));
        json.put("name", t.get_name());
        json.put("status", t.get_status());
        json.put("uptime", prettyUptime(t.get_uptime_secs()));
        json.put("uptimeSeconds", t.get_uptime_secs());
        json.put("tasksTotal", t.get_num_tasks());
        json.put("workersTotal", t.get_num_workers());
        json.put("executorsTotal", t.get_num_executors());
        json.put("owner", t.get_owner());
        json.put("schedulerInfo", t.get_sched_status()); // Storm's field; here a topology's last upgrade
        return json;
    }

    Map<String, Object> topology(String id, String window) throws TException {
        String win = window(window);
        TopologyInfo info = nimbus.getTopologyInfo(id);
        TopologySummary summary = nimbus.getTopologySummary(id);
        Map<String, Object> json = summary(summary);
        json.put("window", win);
        json.put("windowHint", ComponentTotals.WINDOWS.get(win));
        Map<String, Object> conf = conf(id);
        json.put("msgTimeout", conf.get("topology.message.timeout.secs"));
        List<Object> stats = new ArrayList<>();
        for (String w : ComponentTotals.WINDOWS.keySet()) {
            ComponentTotals t = ComponentTotals.topology(info, w);
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("windowPretty", ComponentTotals.WINDOWS.get(w));
            s.put("window", w);
            s.put("emitted", t.emitted);
            s.put("transferred", t.transferred);
            s.put("completeLatency", latency(t.completeLatencyMs()));
            s.put("acked", t.acked);
            s.put("failed", t.failed);
            stats.add(s);
        }
        json.put("topologyStats", stats);
        List<Object> spouts = new ArrayList<>();
        List<Object> bolts = new ArrayList<>();
        for (ComponentTotals c : ComponentTotals.of(info, win).values()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put(c.spout ? "spoutId" : "boltId", c.id);
            row.put(c.spout ? "encodedSpoutId" : "encodedBoltId", Utils.urlEncodeUtf8(c.id));
            row.put("executors", c.executors);
            row.put("tasks", c.tasks);
            putCounts(row, c);
            putLastError(row, c.lastError());
            (c.spout ? spouts : bolts).add(row);
        }
        json.put("spouts", spouts);
        json.put("bolts", bolts);
        json.put("configuration", conf);
        return json;
    }

    Map<String, Object> component(String id, String component, String window) throws TException {
        String win = window(window);
        TopologyInfo info = nimbus.getTopologyInfo(id);
        ComponentTotals selected = ComponentTotals.of(info, win).get(component);
        if (selected == null) {
            throw new NotAliveException("Topology '" + id + "' has no component '" + component + "'");
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", component);
        json.put("encodedId", Utils.urlEncodeUtf8(component));
        json.put("name", info.get_name());
        json.put("componentType", selected.spout ? "spout" : "bolt");
        json.put("topologyId", info.get_id());
        json.put("encodedTopologyId", Utils.urlEncodeUtf8(info.get_id()));
        json.put("executors", selected.executors);
        json.put("tasks", selected.tasks);
        json.put("window", win);
        json.put("windowHint", ComponentTotals.WINDOWS.get(win));
        List<Object> windows = new ArrayList<>();
        for (String w : ComponentTotals.WINDOWS.keySet()) {
            ComponentTotals c = ComponentTotals.of(info, w).get(component);
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("windowPretty", ComponentTotals.WINDOWS.get(w));
            s.put("window", w);
            putCounts(s, c);
            windows.add(s);
        }
        json.put(selected.spout ? "spoutSummary" : "boltStats", windows);
        json.put("outputStats", outputStats(info, component, win));
        json.put("executorStats", executorStats(info, component, win));
        List<Object> errors = new ArrayList<>();
        long now = System.currentTimeMillis() / 1000;
        for (ErrorInfo e : selected.errors) {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("time", e.get_error_time_secs() * 1000L);
            error.put("errorHost", e.get_host());
            error.put("errorPort", e.get_port());
            error.put("errorLapsedSecs", now - e.get_error_time_secs());
            error.put("error", e.get_error());
            errors.add(error);
        }
        json.put("componentErrors", errors);
        return json;
    }

    private static List<Object> outputStats(TopologyInfo info, String component, String window) {
        Map<String, long[]> byStream = new java.util.TreeMap<>();
        for (ExecutorSummary e : info.get_executors()) {
            ExecutorStats stats = e.get_stats();
            if (!component.equals(e.get_component_id()) || stats == null) {
                continue;
            }
            add(byStream, stats.get_emitted(), window, 0);
            add(byStream, stats.get_transferred(), window, 1);
        }
        List<Object> rows = new ArrayList<>();
        byStream.forEach((stream, counts) -> {
            if (!Utils.isSystemId(stream)) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("stream", stream);
                row.put("emitted", counts[0]);
                row.put("transferred", counts[1]);
                rows.add(row);
            }
        });
        return rows;
    }

    private static void add(Map<String, long[]> byStream, Map<String, Map<String, Long>> byWindow, String window, int slot) {
        Map<String, Long> counts = byWindow == null ? null : byWindow.get(window);
        if (counts != null) {
            counts.forEach((stream, n) -> byStream.computeIfAbsent(stream, s -> new long[2])[slot] += n);
        }
    }

    private static List<Object> executorStats(TopologyInfo info, String component, String window) {
        List<Object> rows = new ArrayList<>();
        for (ExecutorSummary e : info.get_executors()) {
            if (!component.equals(e.get_component_id())) {
                continue;
            }
            TopologyInfo one = new TopologyInfo(info);
            one.set_executors(List.of(e));
            one.set_errors(new HashMap<>());
            ComponentTotals c = ComponentTotals.of(one, window).get(component);
            String id = "[" + e.get_executor_info().get_task_start() + "-" + e.get_executor_info().get_task_end() + "]";
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", id);
            row.put("encodedId", Utils.urlEncodeUtf8(id));
            row.put("uptime", prettyUptime(e.get_uptime_secs()));
            row.put("uptimeSeconds", e.get_uptime_secs());
            row.put("host", e.get_host());
            row.put("port", e.get_port());
            putCounts(row, c);
            rows.add(row);
        }
        return rows;
    }

    /** The counts and latencies Storm's UI shows for a spout or a bolt. */
    private static void putCounts(Map<String, Object> row, ComponentTotals c) {
        row.put("emitted", c.emitted);
        row.put("transferred", c.transferred);
        row.put("acked", c.acked);
        row.put("failed", c.failed);
        if (c.spout) {
            row.put("completeLatency", latency(c.completeLatencyMs()));
        } else {
            row.put("executed", c.executed);
            row.put("executeLatency", latency(c.executeLatencyMs()));
            row.put("processLatency", latency(c.processLatencyMs()));
        }
    }

    Map<String, Object> activate(String id, boolean active) throws TException {
        String name = nimbus.getTopologySummary(id).get_name();
        if (active) {
            nimbus.activate(name);
        } else {
            nimbus.deactivate(name);
        }
        return operation(active ? "activate" : "deactivate", id);
    }

    Map<String, Object> kill(String id, int waitSecs) throws TException {
        KillOptions options = new KillOptions();
        options.set_wait_secs(waitSecs);
        nimbus.killTopologyWithOpts(nimbus.getTopologySummary(id).get_name(), options);
        return operation("kill", id);
    }

    Map<String, Object> rebalance(String id, int waitSecs, String body) throws TException {
        RebalanceOptions options = RebalanceBody.parse(id, waitSecs, body);
        nimbus.rebalance(nimbus.getTopologySummary(id).get_name(), options);
        return operation("rebalance", id);
    }

    private static Map<String, Object> operation(String what, String id) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("topologyOperation", what);
        json.put("topologyId", id);
        json.put("status", "success");
        return json;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> conf(String id) throws TException {
        Object parsed = JSONValue.parse(nimbus.getTopologyConf(id));
        return parsed instanceof Map ? (Map<String, Object>) parsed : Map.of();
    }

    private static void putLastError(Map<String, Object> row, ErrorInfo last) {
        row.put("lastError", last == null ? "" : last.get_error());
        row.put("errorLapsedSecs", last == null ? null : System.currentTimeMillis() / 1000 - last.get_error_time_secs());
        row.put("errorHost", last == null ? "" : HOST);
    }

    private static String window(String window) throws NotAliveException {
        String w = window == null || window.isBlank() ? ":all-time" : window;
        if (!ComponentTotals.WINDOWS.containsKey(w)) {
            throw new IllegalArgumentException("window must be one of " + ComponentTotals.WINDOWS.keySet() + ", got '"
                + window + "'");
        }
        return w;
    }

    private static String latency(double ms) {
        return String.format(Locale.ROOT, "%.3f", ms);
    }

    static String prettyUptime(int secs) {
        int days = secs / 86400;
        int hours = secs / 3600 % 24;
        int minutes = secs / 60 % 60;
        int seconds = secs % 60;
        StringBuilder text = new StringBuilder();
        if (days > 0) {
            text.append(days).append("d ");
        }
        if (days > 0 || hours > 0) {
            text.append(hours).append("h ");
        }
        if (days > 0 || hours > 0 || minutes > 0) {
            text.append(minutes).append("m ");
        }
        return text.append(seconds).append('s').toString();
    }
}
