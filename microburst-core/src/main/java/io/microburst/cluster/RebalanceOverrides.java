package io.microburst.cluster;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.Constants;
import org.apache.storm.generated.ComponentCommon;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.utils.WrappedInvalidTopologyException;

/**
 * What a rebalance's {@code topology_conf_overrides} and {@code topology_resources_overrides} change in the
 * configuration and topology Nimbus keeps for a topology, with Nimbus's rules: the configuration overrides are a JSON
 * map put over the topology's configuration, without the keys a user may not set that way; each resource override goes
 * into its component's {@code topology.component.resources.map}, under Storm's normalized resource names.
 */
public final class RebalanceOverrides {
    /** Keys Nimbus drops from the configuration overrides. */
    private static final List<String> NOT_OVERRIDDEN = List.of(Config.TOPOLOGY_SUBMITTER_PRINCIPAL,
        Config.TOPOLOGY_SUBMITTER_USER, Config.STORM_ZOOKEEPER_SUPERACL, Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_SCHEME,
        Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_PAYLOAD, Config.STORM_LOCAL_HOSTNAME);
    /** Storm's legacy resource settings and the resource names they stand for. */
    private static final Map<String, String> NORMALIZED = Map.of(
        Config.TOPOLOGY_COMPONENT_CPU_PCORE_PERCENT, Constants.COMMON_CPU_RESOURCE_NAME,
        Config.TOPOLOGY_COMPONENT_RESOURCES_ONHEAP_MEMORY_MB, Constants.COMMON_ONHEAP_MEMORY_RESOURCE_NAME,
        Config.TOPOLOGY_COMPONENT_RESOURCES_OFFHEAP_MEMORY_MB, Constants.COMMON_OFFHEAP_MEMORY_RESOURCE_NAME);

    private RebalanceOverrides() {
    }

    /**
     * The configuration overrides of {@code json}, without the keys Nimbus drops.
     *
     * @throws InvalidTopologyException naming the topology when {@code json} is not a JSON map
     */
    public static Map<String, Object> confOverrides(String topologyName, String json) throws InvalidTopologyException {
        Object parsed;
        try {
            parsed = JSONValue.parseWithException(json);
        } catch (Exception e) {
            parsed = e;
        }
        if (!(parsed instanceof Map<?, ?> map)) {
            throw new WrappedInvalidTopologyException("Rebalance of topology '" + topologyName
                + "': topology_conf_overrides is not a JSON map: " + json);
        }
        Map<String, Object> overrides = new HashMap<>();
        map.forEach((k, v) -> overrides.put(String.valueOf(k), v));
        NOT_OVERRIDDEN.forEach(overrides::remove);
        return overrides;
    }

    /** {@code conf} with {@code overrides} put over it. */
    public static Map<String, Object> withConf(Map<String, Object> conf, Map<String, Object> overrides) {
        Map<String, Object> result = new HashMap<>(conf);
        result.putAll(overrides);
        return result;
    }

    /**
     * A copy of {@code topology} where each component named in {@code overrides} has those resources in its JSON
     * configuration's {@code topology.component.resources.map} (a legacy setting of the same resource is removed);
     * components the topology does not have are ignored, as Nimbus ignores them.
     */
    public static StormTopology withResources(StormTopology topology, Map<String, Map<String, Double>> overrides) {
        StormTopology copy = topology.deepCopy();
        if (copy.get_spouts() != null) {
            copy.get_spouts().forEach((id, spout) -> update(spout.get_common(), overrides.get(id)));
        }
        if (copy.get_bolts() != null) {
            copy.get_bolts().forEach((id, bolt) -> update(bolt.get_common(), overrides.get(id)));
        }
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static void update(ComponentCommon common, Map<String, Double> resources) {
        if (resources == null) {
            return;
        }
        Object parsed = common.get_json_conf() == null ? null : JSONValue.parse(common.get_json_conf());
        Map<String, Object> conf = parsed instanceof Map<?, ?> ? new HashMap<>((Map<String, Object>) parsed)
            : new HashMap<>();
        Object current = conf.get(Config.TOPOLOGY_COMPONENT_RESOURCES_MAP);
        Map<String, Object> map = current instanceof Map<?, ?> ? new HashMap<>((Map<String, Object>) current)
            : new HashMap<>();
        resources.forEach((name, amount) -> {
            String normalized = NORMALIZED.getOrDefault(name, name);
            NORMALIZED.forEach((legacy, resource) -> {
                if (resource.equals(normalized)) {
                    conf.remove(legacy);
                    map.remove(legacy);
                }
            });
            map.put(normalized, amount == null ? null : amount.doubleValue());
        });
        conf.put(Config.TOPOLOGY_COMPONENT_RESOURCES_MAP, map);
        common.set_json_conf(JSONValue.toJSONString(conf));
    }
}
