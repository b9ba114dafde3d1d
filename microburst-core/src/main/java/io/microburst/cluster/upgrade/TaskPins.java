package io.microburst.cluster.upgrade;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.ComponentCommon;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/**
 * Keeps the task count of components whose state is carried: a copy of the topology where each such component's
 * configuration sets {@code topology.tasks} to the old count and its parallelism (its executor count) is what the new
 * version asked, at most that count, as a rebalance would apply it.
 *
 * <p>Threading: stateless; the upgrading thread.
 */
final class TaskPins {
    private TaskPins() {
    }

    @SuppressWarnings("unchecked")
    static StormTopology pin(StormTopology topology, Map<String, Integer> tasks) {
        StormTopology copy = topology.deepCopy();
        Map<String, ComponentCommon> commons = new HashMap<>();
        copy.get_spouts().forEach((id, spout) -> commons.put(id, spout.get_common()));
        copy.get_bolts().forEach((id, bolt) -> commons.put(id, bolt.get_common()));
        tasks.forEach((id, count) -> {
            ComponentCommon common = commons.get(id);
            Object parsed = common.is_set_json_conf() ? JSONValue.parse(common.get_json_conf()) : null;
            Map<String, Object> conf = parsed instanceof Map ? new HashMap<>((Map<String, Object>) parsed)
                : new HashMap<>();
            conf.put(Config.TOPOLOGY_TASKS, count);
            common.set_json_conf(JSONValue.toJSONString(conf));
            int executors = common.is_set_parallelism_hint() ? common.get_parallelism_hint() : 1;
            common.set_parallelism_hint(Math.max(1, Math.min(executors, count)));
        });
        return copy;
    }
}
