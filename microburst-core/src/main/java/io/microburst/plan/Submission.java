package io.microburst.plan;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.utils.Utils;
import org.apache.storm.utils.WrappedInvalidTopologyException;

/**
 * What a submission must pass: a usable topology name and a configuration that survives the JSON transport a real
 * cluster puts it through (as Storm's LocalCluster also requires) before it is planned, and components that
 * deserialize once it is.
 *
 * <p>Threading: stateless; any thread.
 */
public final class Submission {
    private Submission() {
    }

    /**
     * The configuration a topology runs with: the cluster's, then the submitted one after its JSON round trip, then its
     * name, id and local mode. As Nimbus does, the ZooKeeper digest StormSubmitter always adds is dropped when the
     * cluster's ZooKeeper has no authentication (storm-client would otherwise ask for a super ACL).
     */
    public static Map<String, Object> topologyConf(Map<String, Object> clusterConf, String topologyName, String stormId,
        Map<String, Object> submitted) throws InvalidTopologyException {
        Map<String, Object> topoConf = new HashMap<>(clusterConf);
        topoConf.putAll(jsonRoundTrip(topologyName, submitted == null ? Map.of() : submitted));
        topoConf.put(Config.TOPOLOGY_NAME, topologyName);
        topoConf.put(Config.STORM_ID, stormId);
        topoConf.put(Config.STORM_CLUSTER_MODE, "local");
        if (!Utils.isZkAuthenticationConfiguredStormServer(clusterConf)) {
            topoConf.remove(Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_SCHEME);
            topoConf.remove(Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_PAYLOAD);
        }
        return topoConf;
    }

    /**
     * Each component is deserialized once at submit, so that one whose deserialization throws is refused here, named,
     * rather than failing on its executor after the submit returned. Each task still makes its own instance.
     */
    public static void checkComponentsDeserialize(String topologyName, TopologyPlan plan, ClassLoader loader)
        throws InvalidTopologyException {
        for (ComponentPlan c : plan.components().values()) {
            try {
                UserObjects.instantiate(c.object(), loader, c.id());
            } catch (RuntimeException | LinkageError | StackOverflowError e) {
                InvalidTopologyException invalid = new WrappedInvalidTopologyException("Topology '" + topologyName
                    + "': component '" + c.id() + "' cannot be deserialized: " + e);
                invalid.initCause(e);
                throw invalid;
            }
        }
    }

    /** Refuses an empty name or one with a character a cluster cannot use in paths and ids. */
    public static void validateName(String name) throws InvalidTopologyException {
        if (name == null || name.isBlank()) {
            throw new WrappedInvalidTopologyException("A topology needs a non-empty name");
        }
        for (char c : new char[] {'/', '.', ':', '\\'}) {
            if (name.indexOf(c) >= 0) {
                throw new WrappedInvalidTopologyException("Topology name '" + name + "' contains '" + c
                    + "'; names may not contain / . : or \\");
            }
        }
    }

    /**
     * The configuration as a cluster would see it after JSON transport, as Storm's LocalCluster does too; a value that
     * does not survive the trip is refused, naming its key.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> jsonRoundTrip(String topologyName, Map<String, Object> conf)
        throws InvalidTopologyException {
        Object parsed;
        try {
            parsed = JSONValue.parseWithException(JSONValue.toJSONString(conf));
        } catch (Exception | LinkageError e) {
            // the JSON writer can fail on a value it reflects into (a JDK class): name the key
            for (Map.Entry<String, Object> entry : conf.entrySet()) {
                try {
                    JSONValue.toJSONString(java.util.Collections.singletonMap(entry.getKey(), entry.getValue()));
                } catch (Exception | LinkageError keyError) {
                    throw new WrappedInvalidTopologyException("Topology '" + topologyName + "': configuration value of '"
                        + entry.getKey() + "' (" + entry.getValue() + ") is not JSON-serializable: " + keyError);
                }
            }
            throw new WrappedInvalidTopologyException("Topology '" + topologyName + "' has a configuration that is not JSON: " + e);
        }
        Map<String, Object> result = (Map<String, Object>) parsed;
        for (Map.Entry<String, Object> e : conf.entrySet()) {
            if (!jsonEquivalent(e.getValue(), result.get(e.getKey()))) {
                throw new WrappedInvalidTopologyException("Topology '" + topologyName + "': configuration value of '"
                    + e.getKey() + "' (" + e.getValue() + ") is not JSON-serializable");
            }
        }
        return result;
    }

    /** Equal after JSON transport, as Storm's {@code Utils.isValidConf} compares: ints as longs, floats as doubles. */
    private static boolean jsonEquivalent(Object original, Object parsed) {
        return java.util.Objects.equals(normalized(original), normalized(parsed));
    }

    private static Object normalized(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> result = new java.util.HashMap<>();
            map.forEach((k, v) -> result.put(k, normalized(v)));
            return result;
        }
        if (value instanceof java.util.Collection<?> values) {
            List<Object> result = new java.util.ArrayList<>();
            for (Object v : values) {
                result.add(normalized(v));
            }
            return result;
        }
        if (value instanceof Integer i) {
            return i.longValue();
        }
        if (value instanceof Float f) {
            return f.doubleValue();
        }
        return value;
    }
}
