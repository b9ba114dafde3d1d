package io.microburst.server.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * The topology's graph for the pages: every user component with its type, parallelism and inputs (component, stream,
 * grouping), as Storm UI's {@code /api/v1/topology/{id}/visualization} describes them. Stateless.
 */
final class Visualization {
    private final Nimbus.Iface nimbus;

    Visualization(Nimbus.Iface nimbus) {
        this.nimbus = nimbus;
    }

    Map<String, Object> of(String id) throws TException {
        StormTopology topology = nimbus.getUserTopology(id);
        Map<String, Object> json = new TreeMap<>();
        for (Map.Entry<String, SpoutSpec> e : topology.get_spouts().entrySet()) {
            if (!Utils.isSystemId(e.getKey())) {
                json.put(e.getKey(), component("spout", e.getValue().get_common()));
            }
        }
        for (Map.Entry<String, Bolt> e : topology.get_bolts().entrySet()) {
            if (!Utils.isSystemId(e.getKey())) {
                json.put(e.getKey(), component("bolt", e.getValue().get_common()));
            }
        }
        return json;
    }

    private static Map<String, Object> component(String type, ComponentCommon common) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put(":type", type);
        json.put(":parallelism", common.get_parallelism_hint());
        List<Object> inputs = new ArrayList<>();
        for (Map.Entry<GlobalStreamId, Grouping> in : common.get_inputs().entrySet()) {
            if (Utils.isSystemId(in.getKey().get_componentId()) || Utils.isSystemId(in.getKey().get_streamId())) {
                continue;
            }
            Map<String, Object> input = new LinkedHashMap<>();
            input.put(":component", in.getKey().get_componentId());
            input.put(":stream", in.getKey().get_streamId());
            input.put(":grouping", in.getValue().getSetField().getFieldName());
            inputs.add(input);
        }
        json.put(":inputs", inputs);
        return json;
    }
}
