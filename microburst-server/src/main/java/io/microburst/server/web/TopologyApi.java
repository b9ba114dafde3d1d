package io.microburst.server.web;

import io.microburst.cluster.ClusterViews;
import io.microburst.cluster.upgrade.UpgradeHistory;
import io.microburst.runtime.task.EventSampling;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.LinkedHashMap;
import java.util.TreeMap;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.Utils;
import org.apache.storm.utils.VersionInfo;

/**
 * Storm's UI REST {@code topology/summary} and {@code topology/ID?window=&sys=}: the topology's figures per window
 * (emitted and transferred summed over every executor, acked, failed and complete latency over its spouts' trees), its
 * workers (one per topology here), spouts and bolts (bolts with Storm's capacity), debug options and configuration.
 * Resource fields are this process' truth: the assigned memory is the server's heap limit, nothing is requested.
 * Each {@code topology/summary} row adds Microburst's {@code emitted} ({@link EmittedTotals}), which the cluster page
 * shows as a rate; {@code topology/ID} lists the topology's upgrades ({@code upgrades}, {@link UpgradeList}).
 * Configurations come from {@link ConfViews} (fetched at most once a second). Stateless apart from the shared
 * {@link DebugSampling}, {@link ConfViews}, {@link EmittedTotals} and {@link UpgradeHistory}; thread-safe.
 */
final class TopologyApi {
    private final Nimbus.Iface nimbus;
    private final MachineResources machine;
    private final DebugSampling debug;
    private final ConfViews confs;
    private final EmittedTotals emitted;
    private final UpgradeHistory upgrades;

    TopologyApi(Nimbus.Iface nimbus, MachineResources machine, DebugSampling debug, ConfViews confs,
                EmittedTotals emitted, UpgradeHistory upgrades) {
        this.nimbus = nimbus;
        this.machine = machine;
        this.debug = debug;
        this.confs = confs;
        this.emitted = emitted;
        this.upgrades = upgrades;
    }

    Map<String, Object> summary() throws Exception {
        List<Object> topologies = new ArrayList<>();
        Map<String, Long> emittedById = emitted.byId();
        for (TopologySummary t : nimbus.getClusterInfo().get_topologies()) {
            Map<String, Object> row = summaryRow(t);
            putResources(row, machine.heapMaxMb());
            // Microburst's: tuples emitted since the start, as topologyStats' :all-time window on the topology page
            row.put("emitted", emittedById.getOrDefault(t.get_id(), 0L));
            topologies.add(row);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("topologies", topologies);
        json.put("schedulerDisplayResource", true);
        return json;
    }

    /** A topology's row of {@code topology/summary}, without the resource fields. */
    static Map<String, Object> summaryRow(TopologySummary t) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", t.get_id());
        json.put("encodedId", Utils.urlEncodeUtf8(t.get_id()));
        json.put("owner", t.get_owner());
        json.put("name", t.get_name());
        json.put("status", t.get_status());
        json.put("uptime", StormJson.prettyUptime(t.get_uptime_secs()));
        json.put("uptimeSeconds", t.get_uptime_secs());
        json.put("tasksTotal", t.get_num_tasks());
        json.put("workersTotal", t.get_num_workers());
        json.put("executorsTotal", t.get_num_executors());
        // the code is kept once, by this server
        json.put("replicationCount", 1);
        json.put("schedulerInfo", t.get_sched_status());
        json.put("stormVersion", VersionInfo.getVersion());
        json.put("topologyVersion", t.get_topology_version());
        return json;
    }

    /** Storm's requested and assigned resources: nothing requested, the process' heap limit assigned. */
    static void putResources(Map<String, Object> json, double heapMb) {
        json.put("requestedMemOnHeap", 0.0);
        json.put("requestedMemOffHeap", 0.0);
        json.put("requestedTotalMem", 0.0);
        json.put("requestedCpu", 0.0);
        json.put("assignedMemOnHeap", heapMb);
        json.put("assignedMemOffHeap", 0.0);
        json.put("assignedTotalMem", heapMb);
        json.put("assignedCpu", 0.0);
        // Storm's generic resources (GPUs and the like), printed as Storm prints them: none
        json.put("requestedGenericResources", "");
        json.put("assignedGenericResources", "");
    }

    /** Storm's page splits memory into regular and shared (between executors of a worker): none is shared here. */
    private static void putMemoryKinds(Map<String, Object> json, double heapMb) {
        for (String side : new String[] {"requested", "assigned"}) {
            json.put(side + "RegularOnHeapMem", side.equals("assigned") ? heapMb : 0.0);
            json.put(side + "SharedOnHeapMem", 0.0);
            json.put(side + "RegularOffHeapMem", 0.0);
            json.put(side + "SharedOffHeapMem", 0.0);
        }
    }

    Map<String, Object> topology(String id, String window, String sys) throws TException {
        String win = StormJson.window(window);
        boolean withSys = StormJson.sys(sys);
        TopologyInfo info = nimbus.getTopologyInfo(id);
        LogviewerAddress logviewer = confs.logviewer();
        Map<String, Object> json = summaryRow(nimbus.getTopologySummary(id));
        putResources(json, machine.heapMaxMb());
        json.put("user", json.get("owner"));
        json.put("window", win);
        json.put("windowHint", ComponentTotals.WINDOWS.get(win));
        ConfViews.TopologyConf conf = confs.topology(id);
        json.put("msgTimeout", conf.map().get("topology.message.timeout.secs"));
        json.put("schedulerDisplayResource", true);
        putMemoryKinds(json, machine.heapMaxMb());
        Map<String, Object> serverConf = confs.server();
        json.put("bugtracker-url", serverConf.get("ui.project.bugtracker.url"));
        json.put("central-log-url", serverConf.get("ui.central.logging.url"));
        EventSampling.Setting options = debug.of(id, null);
        json.put("debug", options.enabled());
        json.put("samplingPct", options.pct());
        List<Object> stats = new ArrayList<>();
        for (String w : ComponentTotals.WINDOWS.keySet()) {
            ComponentTotals t = ComponentTotals.topology(info, w, withSys);
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("windowPretty", ComponentTotals.WINDOWS.get(w));
            s.put("window", w);
            s.put("emitted", t.emitted);
            s.put("transferred", t.transferred);
            s.put("completeLatency", StormJson.decimal(t.completeLatencyMs()));
            s.put("acked", t.acked);
            s.put("failed", t.failed);
            stats.add(s);
        }
        json.put("topologyStats", stats);
        json.put("workers", workers(info, logviewer));
        List<Object> spouts = new ArrayList<>();
        List<Object> bolts = new ArrayList<>();
        for (ComponentTotals c : ComponentTotals.of(info, win, withSys).values()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put(c.spout ? "spoutId" : "boltId", c.id);
            row.put(c.spout ? "encodedSpoutId" : "encodedBoltId", Utils.urlEncodeUtf8(c.id));
            row.put("executors", c.executors);
            row.put("tasks", c.tasks);
            putCounts(row, c);
            StormJson.putLastError(row, c.lastError(), id, logviewer);
            row.put("requestedMemOnHeap", 0.0);
            row.put("requestedMemOffHeap", 0.0);
            row.put("requestedCpu", 0.0);
            (c.spout ? spouts : bolts).add(row);
        }
        json.put("spouts", spouts);
        json.put("bolts", bolts);
        // the JSON getTopologyConf wrote, embedded as it is rather than parsed and written again
        json.put("configuration", conf.json());
        json.put("visualizationTable", List.of());
        json.put("upgrades", UpgradeList.json(upgrades.of(info.get_name())));
        return json;
    }

    /** {@code topology-workers/ID}: the host and port of each worker, and where the logviewer listens. */
    Map<String, Object> workerHosts(String id) throws TException {
        TopologyInfo info = nimbus.getTopologyInfo(id);
        Map<String, Map<String, Object>> hostPorts = new TreeMap<>();
        for (ExecutorSummary e : info.get_executors()) {
            Map<String, Object> hostPort = new LinkedHashMap<>();
            hostPort.put("host", e.get_host());
            hostPort.put("port", e.get_port());
            hostPorts.put(e.get_host() + ":" + e.get_port(), hostPort);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("hostPortList", new ArrayList<>(hostPorts.values()));
        LogviewerAddress logviewer = confs.logviewer();
        json.put("logviewerPort", logviewer.port());
        json.put("logviewerScheme", logviewer.scheme());
        return json;
    }

    /** The workers of a topology, as {@code topology/ID} and {@code supervisor} list them. */
    List<Object> workers(String id) throws TException {
        return workers(nimbus.getTopologyInfo(id), confs.logviewer());
    }

    private List<Object> workers(TopologyInfo info, LogviewerAddress logviewer) throws TException {
        // the one supervisor getClusterInfo lists, without summarising every topology for it
        String supervisor = ClusterViews.supervisorId();
        Map<String, Map<String, Object>> byWorker = new TreeMap<>();
        for (ExecutorSummary e : info.get_executors()) {
            Map<String, Object> w = byWorker.computeIfAbsent(e.get_host() + ":" + e.get_port(), key -> {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("supervisorId", supervisor);
                row.put("host", e.get_host());
                row.put("port", e.get_port());
                row.put("topologyId", info.get_id());
                row.put("topologyName", info.get_name());
                row.put("executorsTotal", 0);
                row.put("assignedMemOnHeap", machine.heapMaxMb());
                row.put("assignedMemOffHeap", 0.0);
                row.put("assignedCpu", 0.0);
                row.put("componentNumTasks", new TreeMap<String, Long>());
                row.put("uptime", StormJson.prettyUptime(info.get_uptime_secs()));
                row.put("uptimeSeconds", info.get_uptime_secs());
                row.put("workerLogLink", logviewer.workerLogLink(e.get_host(), info.get_id(), e.get_port()));
                row.put("owner", info.get_owner());
                return row;
            });
            w.put("executorsTotal", (Integer) w.get("executorsTotal") + 1);
            @SuppressWarnings("unchecked")
            Map<String, Long> tasks = (Map<String, Long>) w.get("componentNumTasks");
            tasks.merge(e.get_component_id(),
                (long) (e.get_executor_info().get_task_end() - e.get_executor_info().get_task_start() + 1), Long::sum);
        }
        return new ArrayList<>(byWorker.values());
    }

    /** The counts and latencies Storm's UI shows for a spout or a bolt (a bolt's with its capacity). */
    static void putCounts(Map<String, Object> row, ComponentTotals c) {
        row.put("emitted", c.emitted);
        row.put("transferred", c.transferred);
        row.put("acked", c.acked);
        row.put("failed", c.failed);
        if (c.spout) {
            row.put("completeLatency", StormJson.decimal(c.completeLatencyMs()));
        } else {
            row.put("executed", c.executed);
            row.put("executeLatency", StormJson.decimal(c.executeLatencyMs()));
            row.put("processLatency", StormJson.decimal(c.processLatencyMs()));
            row.put("capacity", StormJson.decimal(c.capacity));
        }
    }
}
