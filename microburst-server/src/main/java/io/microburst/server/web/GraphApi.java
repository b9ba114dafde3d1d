package io.microburst.server.web;

import io.microburst.MicroburstCluster;
import io.microburst.metrics.TaskStats;
import io.microburst.runtime.topology.ThreadView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.ComponentCommon;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.SpoutSpec;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.Utils;

/**
 * The live topology graph's data ({@code /api/v1/topology/{id}/graph}, Microburst's own path beside Storm's): the
 * components and their subscriptions (stream, grouping) from the submitted topology, and the executor threads as they
 * run now (after any rebalance), each with its tasks' cumulative counters (emitted, executed per input, estimated busy
 * time), its queue fill and its backpressure time. Counters are cumulative and stamped with {@code atMs}; the page
 * turns two readings into rates and capacity, so this class keeps no state. Read from the runtime's counters, never
 * from the executor threads. Stateless; thread-safe.
 */
final class GraphApi {
    private final Nimbus.Iface nimbus;
    private final MicroburstCluster cluster;

    GraphApi(Nimbus.Iface nimbus, MicroburstCluster cluster) {
        this.nimbus = nimbus;
        this.cluster = cluster;
    }

    Map<String, Object> of(String id) throws TException {
        String name = cluster.getTopologySummary(id).get_name();
        StormTopology topology = nimbus.getUserTopology(id);
        List<Object> components = new ArrayList<>();
        List<Object> edges = new ArrayList<>();
        for (Map.Entry<String, SpoutSpec> e : topology.get_spouts().entrySet()) {
            add(components, edges, e.getKey(), "spout", e.getValue().get_common());
        }
        for (Map.Entry<String, Bolt> e : topology.get_bolts().entrySet()) {
            add(components, edges, e.getKey(), "bolt", e.getValue().get_common());
        }
        List<Object> threads = new ArrayList<>();
        for (ThreadView thread : cluster.getThreadViews(name)) {
            threads.add(thread(thread));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", id);
        json.put("name", name);
        json.put("status", cluster.getTopologySummary(id).get_status());
        json.put("atMs", System.nanoTime() / 1e6);
        json.put("components", components);
        json.put("edges", edges);
        json.put("threads", threads);
        return json;
    }

    private static void add(List<Object> components, List<Object> edges, String id, String type, ComponentCommon common) {
        if (Utils.isSystemId(id)) {
            return;
        }
        Map<String, Object> component = new LinkedHashMap<>();
        component.put("id", id);
        component.put("type", type);
        components.add(component);
        for (Map.Entry<GlobalStreamId, Grouping> in : common.get_inputs().entrySet()) {
            String from = in.getKey().get_componentId();
            String stream = in.getKey().get_streamId();
            if (Utils.isSystemId(from) || Utils.isSystemId(stream)) {
                continue;
            }
            Map<String, Object> edge = new LinkedHashMap<>();
            edge.put("from", from);
            edge.put("to", id);
            edge.put("stream", stream);
            edge.put("grouping", in.getValue().getSetField().getFieldName());
            edges.add(edge);
        }
    }

    private static Map<String, Object> thread(ThreadView thread) {
        List<Object> tasks = new ArrayList<>();
        for (TaskStats task : thread.tasks()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("component", task.componentId());
            row.put("task", task.taskId());
            long emitted = 0;
            for (int s = 0; s < task.outStreamCount(); s++) {
                if (!Utils.isSystemId(task.outStream(s))) {
                    emitted += task.emitted(s);
                }
            }
            row.put("emitted", emitted);
            List<Object> inputs = new ArrayList<>();
            for (int i = 0; i < task.inputCount(); i++) {
                if (Utils.isSystemId(task.inputComponent(i)) || Utils.isSystemId(task.inputStream(i))) {
                    continue;
                }
                inputs.add(Map.of("component", task.inputComponent(i), "stream", task.inputStream(i),
                    "executed", task.executed(i)));
            }
            row.put("inputs", inputs);
            row.put("executed", task.executedTotal());
            row.put("busyMs", busyMs(task));
            tasks.add(row);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", thread.name());
        json.put("tasks", tasks);
        json.put("queued", thread.queuedTuples());
        json.put("queueCapacity", thread.queueCapacity());
        json.put("backpressureMs", thread.backpressureNanos() / 1e6);
        json.put("alive", thread.alive());
        return json;
    }

    /** Time spent executing, estimated as Storm estimates it for capacity: executed times the sampled mean latency. */
    private static double busyMs(TaskStats task) {
        long samples = task.executeSamplesTotal();
        return samples == 0 ? 0 : task.executedTotal() * (task.executeNanosTotal() / (double) samples) / 1e6;
    }
}
