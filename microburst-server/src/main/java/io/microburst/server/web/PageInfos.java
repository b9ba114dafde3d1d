package io.microburst.server.web;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.storm.generated.BoltAggregateStats;
import org.apache.storm.generated.CommonAggregateStats;
import org.apache.storm.generated.ComponentAggregateStats;
import org.apache.storm.generated.ComponentPageInfo;
import org.apache.storm.generated.ComponentType;
import org.apache.storm.generated.ExecutorAggregateStats;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.SpecificAggregateStats;
import org.apache.storm.generated.SpoutAggregateStats;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologyPageInfo;
import org.apache.storm.generated.TopologyStats;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.generated.WorkerSummary;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.VersionInfo;

/**
 * Nimbus' {@code getTopologyPageInfo} and {@code getComponentPageInfo} (the Thrift form of the Storm UI's pages),
 * built from a topology's {@link TopologyInfo} with the same sums as the REST API ({@link ComponentTotals}). System
 * components and streams are always left out, whatever {@code include_sys} says. Stateless.
 */
public final class PageInfos {
    private PageInfos() {
    }

    public static TopologyPageInfo topology(Nimbus.Iface nimbus, String id, String window) throws TException {
        String win = window == null || window.isBlank() ? ":all-time" : window;
        TopologyInfo info = nimbus.getTopologyInfo(id);
        TopologySummary summary = nimbus.getTopologySummary(id);
        TopologyPageInfo page = new TopologyPageInfo(info.get_id());
        page.set_name(info.get_name());
        page.set_uptime_secs(info.get_uptime_secs());
        page.set_status(info.get_status());
        page.set_num_tasks(summary.get_num_tasks());
        page.set_num_workers(summary.get_num_workers());
        page.set_num_executors(summary.get_num_executors());
        page.set_topology_conf(nimbus.getTopologyConf(id));
        page.set_storm_version(VersionInfo.getVersion());
        page.set_owner(summary.get_owner());
        Map<String, ComponentAggregateStats> spouts = new HashMap<>();
        Map<String, ComponentAggregateStats> bolts = new HashMap<>();
        for (ComponentTotals c : ComponentTotals.of(info, win).values()) {
            (c.spout ? spouts : bolts).put(c.id, aggregate(c));
        }
        page.set_id_to_spout_agg_stats(spouts);
        page.set_id_to_bolt_agg_stats(bolts);
        TopologyStats stats = new TopologyStats();
        stats.set_window_to_emitted(new HashMap<>());
        stats.set_window_to_transferred(new HashMap<>());
        stats.set_window_to_acked(new HashMap<>());
        stats.set_window_to_failed(new HashMap<>());
        stats.set_window_to_complete_latencies_ms(new HashMap<>());
        for (String w : ComponentTotals.WINDOWS.keySet()) {
            ComponentTotals t = ComponentTotals.topology(info, w);
            stats.get_window_to_emitted().put(w, t.emitted);
            stats.get_window_to_transferred().put(w, t.transferred);
            stats.get_window_to_acked().put(w, t.acked);
            stats.get_window_to_failed().put(w, t.failed);
            stats.get_window_to_complete_latencies_ms().put(w, t.completeLatencyMs());
        }
        page.set_topology_stats(stats);
        page.set_workers(workers(info, summary));
        return page;
    }

    /**
     * The workers of the page, as Nimbus lists them (its tools read them: storm-loadgen's CaptureLoad takes each
     * worker's uptime): one per host and port the executors report, with the executors and tasks per component there.
     */
    static List<WorkerSummary> workers(TopologyInfo info, TopologySummary summary) {
        Map<String, WorkerSummary> workers = new TreeMap<>();
        for (ExecutorSummary e : info.get_executors()) {
            WorkerSummary worker = workers.computeIfAbsent(e.get_host() + ":" + e.get_port(), key -> {
                WorkerSummary w = new WorkerSummary();
                w.set_supervisor_id(e.get_host());
                w.set_host(e.get_host());
                w.set_port(e.get_port());
                w.set_topology_id(info.get_id());
                w.set_topology_name(info.get_name());
                w.set_num_executors(0);
                w.set_component_to_num_tasks(new HashMap<>());
                w.set_time_secs((int) (System.currentTimeMillis() / 1000));
                w.set_uptime_secs(info.get_uptime_secs());
                if (summary.is_set_owner()) {
                    w.set_owner(summary.get_owner());
                }
                return w;
            });
            worker.set_num_executors(worker.get_num_executors() + 1);
            int tasks = e.get_executor_info().get_task_end() - e.get_executor_info().get_task_start() + 1;
            worker.get_component_to_num_tasks().merge(e.get_component_id(), (long) tasks, Long::sum);
        }
        return new ArrayList<>(workers.values());
    }

    public static ComponentPageInfo component(Nimbus.Iface nimbus, String id, String component, String window)
        throws TException {
        String win = window == null || window.isBlank() ? ":all-time" : window;
        TopologyInfo info = nimbus.getTopologyInfo(id);
        ComponentTotals selected = ComponentTotals.of(info, win).get(component);
        if (selected == null) {
            throw new NotAliveException("Topology '" + id + "' has no component '" + component + "'");
        }
        ComponentPageInfo page = new ComponentPageInfo(component, selected.spout ? ComponentType.SPOUT : ComponentType.BOLT);
        page.set_topology_id(info.get_id());
        page.set_topology_name(info.get_name());
        page.set_topology_status(info.get_status());
        page.set_num_executors(selected.executors);
        page.set_num_tasks(selected.tasks);
        Map<String, ComponentAggregateStats> byWindow = new HashMap<>();
        for (String w : ComponentTotals.WINDOWS.keySet()) {
            byWindow.put(w, aggregate(ComponentTotals.of(info, w).get(component)));
        }
        page.set_window_to_stats(byWindow);
        List<ExecutorAggregateStats> executors = new ArrayList<>();
        for (ExecutorSummary e : info.get_executors()) {
            if (component.equals(e.get_component_id())) {
                TopologyInfo one = new TopologyInfo(info);
                one.set_executors(List.of(e));
                one.set_errors(new HashMap<>());
                ExecutorAggregateStats stats = new ExecutorAggregateStats();
                stats.set_exec_summary(e);
                stats.set_stats(aggregate(ComponentTotals.of(one, win).get(component)));
                executors.add(stats);
            }
        }
        page.set_exec_stats(executors);
        page.set_errors(new ArrayList<>(selected.errors));
        return page;
    }

    private static ComponentAggregateStats aggregate(ComponentTotals c) {
        CommonAggregateStats common = new CommonAggregateStats();
        common.set_num_executors(c.executors);
        common.set_num_tasks(c.tasks);
        common.set_emitted(c.emitted);
        common.set_transferred(c.transferred);
        common.set_acked(c.acked);
        common.set_failed(c.failed);
        ComponentAggregateStats stats = new ComponentAggregateStats();
        stats.set_type(c.spout ? ComponentType.SPOUT : ComponentType.BOLT);
        stats.set_common_stats(common);
        if (c.spout) {
            SpoutAggregateStats spout = new SpoutAggregateStats();
            spout.set_complete_latency_ms(c.completeLatencyMs());
            stats.set_specific_stats(SpecificAggregateStats.spout(spout));
        } else {
            BoltAggregateStats bolt = new BoltAggregateStats();
            bolt.set_executed(c.executed);
            bolt.set_execute_latency_ms(c.executeLatencyMs());
            bolt.set_process_latency_ms(c.processLatencyMs());
            stats.set_specific_stats(SpecificAggregateStats.bolt(bolt));
        }
        if (c.lastError() != null) {
            stats.set_last_error(c.lastError());
        }
        return stats;
    }
}
