package io.microburst.server;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.ComponentCommon;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/** A stored topology as its past rebalances left it. A pure function: any thread. */
final class RebalancedTopology {
    private RebalancedTopology() {
    }

    /**
     * The topology with the executor counts of past rebalances: each such component keeps its task count (written
     * into its configuration's {@code topology.tasks} when it had none) and gets the count as its parallelism, so it
     * starts as the rebalance left it, as Storm's scheduler would place it again. Components no longer in the topology
     * are ignored.
     */
    @SuppressWarnings("unchecked")
    static StormTopology of(StormTopology topology, Map<String, Integer> executors) {
        if (executors.isEmpty()) {
            return topology;
        }
        StormTopology copy = topology.deepCopy();
        Map<String, ComponentCommon> commons = new HashMap<>();
        copy.get_spouts().forEach((id, spout) -> commons.put(id, spout.get_common()));
        copy.get_bolts().forEach((id, bolt) -> commons.put(id, bolt.get_common()));
        executors.forEach((id, count) -> {
            ComponentCommon common = commons.get(id);
            if (common == null) {
                return;
            }
            Object parsed = common.is_set_json_conf() ? JSONValue.parse(common.get_json_conf()) : null;
            Map<String, Object> conf = parsed instanceof Map ? new HashMap<>((Map<String, Object>) parsed)
                : new HashMap<>();
            conf.putIfAbsent(Config.TOPOLOGY_TASKS, common.is_set_parallelism_hint() ? common.get_parallelism_hint() : 1);
            common.set_json_conf(JSONValue.toJSONString(conf));
            common.set_parallelism_hint(count);
        });
        return copy;
    }
}
