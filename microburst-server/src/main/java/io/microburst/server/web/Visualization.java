package io.microburst.server.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.storm.generated.ComponentCommon;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.Utils;

/**
 * The topology's graph as Storm UI's {@code topology/ID/visualization?window=&sys=} describes it: per component its
 * {@code :type}, {@code :capacity} (bolts; spouts 0), {@code :latency} (complete latency of a spout, process latency
 * of a bolt, per stream), {@code :transferred} per stream, {@code :stats} per executor, {@code :link} to its page and
 * {@code :inputs} (component, stream, grouping); plus {@code :parallelism}, its executors now (so a rebalance shows).
 * {@code visualization-init} lists the streams for the graph's stream selector. Stateless.
 */
final class Visualization {
    private final Nimbus.Iface nimbus;

    Visualization(Nimbus.Iface nimbus) {
        this.nimbus = nimbus;
    }

    Map<String, Object> of(String id, String window, String sys) throws TException {
        String win = StormJson.window(window);
        boolean withSys = StormJson.sys(sys);
        StormTopology topology = nimbus.getUserTopology(id);
        TopologyInfo info = nimbus.getTopologyInfo(id);
        Map<String, ComponentTotals> totals = ComponentTotals.of(info, win, withSys);
        Map<String, ComponentTotals> tenMinutes = ComponentTotals.of(info, "600", withSys);
        Map<String, Object> json = new TreeMap<>();
        topology.get_spouts().forEach((c, spec) -> put(json, id, c, "spout", spec.get_common(), info, totals, tenMinutes,
            win, withSys));
        topology.get_bolts().forEach((c, spec) -> put(json, id, c, "bolt", spec.get_common(), info, totals, tenMinutes,
            win, withSys));
        return json;
    }

    private static void put(Map<String, Object> json, String id, String component, String type, ComponentCommon common,
                            TopologyInfo info, Map<String, ComponentTotals> totals,
                            Map<String, ComponentTotals> tenMinutes, String window, boolean sys) {
        if (!sys && Utils.isSystemId(component)) {
            return;
        }
        ComponentTotals t = totals.get(component);
        Map<String, Object> node = new LinkedHashMap<>();
        node.put(":type", type);
        node.put(":parallelism", t == null ? common.get_parallelism_hint() : t.executors);
        ComponentTotals recent = tenMinutes.get(component);
        node.put(":capacity", "spout".equals(type) || recent == null ? 0.0 : recent.capacity);
        node.put(":latency", t == null ? 0.0 : "spout".equals(type) ? t.completeLatencyMs() : t.processLatencyMs());
        Map<String, Long> transferred = new TreeMap<>();
        List<Object> stats = new ArrayList<>();
        for (ExecutorSummary e : info.get_executors()) {
            if (!component.equals(e.get_component_id())) {
                continue;
            }
            Map<String, Long> mine = e.get_stats() == null || e.get_stats().get_transferred() == null ? null
                : e.get_stats().get_transferred().get(window);
            if (mine != null) {
                mine.forEach((s, n) -> {
                    if (sys || !Utils.isSystemId(s)) {
                        transferred.merge(s, n, Long::sum);
                    }
                });
            }
            Map<String, Object> stat = new LinkedHashMap<>();
            stat.put(":host", e.get_host());
            stat.put(":port", e.get_port());
            stat.put(":uptime_secs", e.get_uptime_secs());
            stat.put(":transferred", e.get_stats() == null ? null : e.get_stats().get_transferred());
            stats.add(stat);
        }
        node.put(":transferred", transferred);
        node.put(":stats", stats);
        node.put(":link", "/component.html?id=" + Utils.urlEncodeUtf8(component) + "&topology_id="
            + Utils.urlEncodeUtf8(id));
        List<Object> inputs = new ArrayList<>();
        for (Map.Entry<GlobalStreamId, Grouping> in : common.get_inputs().entrySet()) {
            if (!sys && (Utils.isSystemId(in.getKey().get_componentId()) || Utils.isSystemId(in.getKey().get_streamId()))) {
                continue;
            }
            Map<String, Object> input = new LinkedHashMap<>();
            input.put(":component", in.getKey().get_componentId());
            input.put(":stream", in.getKey().get_streamId());
            input.put(":sani-stream", saniStream(in.getKey().get_streamId()));
            input.put(":grouping", in.getValue().getSetField().getFieldName());
            inputs.add(input);
        }
        node.put(":inputs", inputs);
        json.put(component, node);
    }

    /** {@code visualization-init}: the topology's streams, four to a row, checked unless a system stream. */
    Map<String, Object> init(String id, String window, String sys) throws TException {
        TreeSet<String> streams = new TreeSet<>();
        for (Object node : of(id, window, sys).values()) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> inputs = (List<Map<String, Object>>) ((Map<String, Object>) node).get(":inputs");
            for (Map<String, Object> input : inputs) {
                streams.add((String) input.get(":stream"));
            }
        }
        List<Object> rows = new ArrayList<>();
        List<Object> row = new ArrayList<>();
        for (String stream : streams) {
            Map<String, Object> box = new LinkedHashMap<>();
            box.put("stream", stream);
            box.put("sani-stream", saniStream(stream));
            box.put("checked", !Utils.isSystemId(stream));
            row.add(box);
            if (row.size() == 4) {
                rows.add(row);
                row = new ArrayList<>();
            }
        }
        if (!row.isEmpty()) {
            rows.add(row);
        }
        return Map.of("visualizationTable", rows);
    }

    /**
     * A stream name made safe for an HTML id, as Storm's UI makes it: every character but letters, {@code _}, {@code -}
     * and {@code .} becomes {@code _}, and a name not starting with a letter gets {@code _s} before it.
     */
    private static String saniStream(String stream) {
        String safe = stream.replaceAll("[^A-Za-z_\\-.]", "_");
        return !stream.isEmpty() && Character.isLetter(stream.charAt(0)) ? safe : "_s" + safe;
    }
}
