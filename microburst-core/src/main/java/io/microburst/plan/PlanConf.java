package io.microburst.plan;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.storm.Config;
import org.apache.storm.generated.ComponentCommon;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.WrappedInvalidTopologyException;
import org.apache.storm.validation.ConfigValidation;
import org.apache.storm.validation.NotConf;

/**
 * How a plan reads configuration, as Storm does: a component's JSON configuration merged over the topology's (only
 * the Storm keys Storm lets a component override, plus its own keys), Storm's own validators applied to every Storm
 * key, and integers read with an error that names the owner.
 *
 * <p>Threading: stateless; any thread.
 */
final class PlanConf {
    /** Storm keys a component configuration may override; every other Storm key in it is ignored, as in Storm. */
    private static final Set<String> COMPONENT_OVERRIDABLE = Set.of(
        Config.TOPOLOGY_DEBUG, Config.TOPOLOGY_MAX_SPOUT_PENDING, Config.TOPOLOGY_MAX_TASK_PARALLELISM,
        Config.TOPOLOGY_TRANSACTIONAL_ID, Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS,
        Config.TOPOLOGY_SLEEP_SPOUT_WAIT_STRATEGY_TIME_MS, Config.TOPOLOGY_SPOUT_WAIT_STRATEGY,
        Config.TOPOLOGY_BOLTS_WINDOW_LENGTH_COUNT, Config.TOPOLOGY_BOLTS_WINDOW_LENGTH_DURATION_MS,
        Config.TOPOLOGY_BOLTS_SLIDING_INTERVAL_COUNT, Config.TOPOLOGY_BOLTS_SLIDING_INTERVAL_DURATION_MS,
        Config.TOPOLOGY_BOLTS_TUPLE_TIMESTAMP_MAX_LAG_MS, Config.TOPOLOGY_BOLTS_MESSAGE_ID_FIELD_NAME,
        Config.TOPOLOGY_STATE_PROVIDER, Config.TOPOLOGY_STATE_PROVIDER_CONFIG, Config.TOPOLOGY_BOLTS_LATE_TUPLE_STREAM);
    /** Storm's configuration keys, each with the field of {@link Config} that declares it (and its validator). */
    private static final Map<String, Field> CONF_FIELDS = stormConfigFields();
    private static final Set<String> STORM_KEYS = CONF_FIELDS.keySet();

    private PlanConf() {
    }

    static Map<String, Object> componentConf(Map<String, Object> topoConf, ComponentCommon common, String id)
        throws InvalidTopologyException {
        Map<String, Object> merged = new HashMap<>(topoConf);
        Map<String, Object> own = ownConf(common, id);
        if (own != null) {
            for (Map.Entry<String, Object> e : own.entrySet()) {
                if (!STORM_KEYS.contains(e.getKey()) || COMPONENT_OVERRIDABLE.contains(e.getKey())
                    || Config.TOPOLOGY_TASKS.equals(e.getKey())) {
                    merged.put(e.getKey(), e.getValue());
                }
            }
            check(own, Map.of(), "Component '" + id + "'");
        }
        return merged;
    }

    /** The component's own configuration (its JSON), or null if it has none. */
    private static Map<String, Object> ownConf(ComponentCommon common, String id) throws InvalidTopologyException {
        String json = common.get_json_conf();
        if (json == null || json.isEmpty()) {
            return null;
        }
        Object parsed;
        try {
            parsed = JSONValue.parseWithException(json);
        } catch (Exception e) {
            throw new WrappedInvalidTopologyException("Component '" + id + "' has a configuration that is not valid JSON: " + e.getMessage());
        }
        if (!(parsed instanceof Map)) {
            throw new WrappedInvalidTopologyException("Component '" + id + "' has a configuration that is not a map: " + json);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> own = (Map<String, Object>) parsed;
        return own;
    }

    /**
     * As Storm's Nimbus when it normalizes a submitted configuration: every component's {@code topology.kryo.decorators}
     * and {@code topology.kryo.register} join the topology's, so that all tasks serialize alike. The registrations
     * become one map of class to serializer (null for Kryo's default), the decorators one list without duplicates.
     * Returns a new map; {@code conf} is left as it was.
     */
    static Map<String, Object> mergeKryoConf(Map<String, Object> conf, StormTopology topology, String name)
        throws InvalidTopologyException {
        Set<String> decorators = new HashSet<>();
        Map<String, String> registrations = new HashMap<>();
        Map<String, ComponentCommon> commons = new HashMap<>();
        if (topology.get_spouts() != null) {
            topology.get_spouts().forEach((id, spout) -> commons.put(id, spout.get_common()));
        }
        if (topology.get_bolts() != null) {
            topology.get_bolts().forEach((id, bolt) -> commons.put(id, bolt.get_common()));
        }
        for (Map.Entry<String, ComponentCommon> e : commons.entrySet()) {
            Map<String, Object> own = ownConf(e.getValue(), e.getKey());
            if (own == null) {
                continue;
            }
            addKryoConf(decorators, registrations, own, "Component '" + e.getKey() + "'");
        }
        addKryoConf(decorators, registrations, conf, "Topology '" + name + "'");
        Map<String, Object> merged = new HashMap<>(conf);
        // through JSON, as Storm's stored configuration: tasks then read a JSONObject and a JSONArray, as in Storm
        merged.put(Config.TOPOLOGY_KRYO_REGISTER, JSONValue.parse(JSONValue.toJSONString(registrations)));
        merged.put(Config.TOPOLOGY_KRYO_DECORATORS, JSONValue.parse(JSONValue.toJSONString(new ArrayList<>(decorators))));
        return merged;
    }

    private static void addKryoConf(Set<String> decorators, Map<String, String> registrations, Map<String, Object> conf,
                                    String owner) throws InvalidTopologyException {
        Object decorating = conf.get(Config.TOPOLOGY_KRYO_DECORATORS);
        if (decorating instanceof Iterable<?> list) {
            for (Object d : list) {
                decorators.add(String.valueOf(d));
            }
        } else if (decorating != null) {
            throw new WrappedInvalidTopologyException(owner + ": " + Config.TOPOLOGY_KRYO_DECORATORS
                + " must be a list of class names, got '" + decorating + "'");
        }
        Object registering = conf.get(Config.TOPOLOGY_KRYO_REGISTER);
        if (registering instanceof Iterable<?> list) {
            for (Object r : list) {
                if (r instanceof Map<?, ?> map) {
                    map.forEach((type, serializer) -> registrations.put(String.valueOf(type),
                        serializer == null ? null : String.valueOf(serializer)));
                } else {
                    registrations.put(String.valueOf(r), null);
                }
            }
        } else if (registering != null) {
            throw new WrappedInvalidTopologyException(owner + ": " + Config.TOPOLOGY_KRYO_REGISTER
                + " must be a list of class names or maps of class name to serializer, got '" + registering + "'");
        }
    }

    /**
     * Storm's own validators, applied to each Storm key of {@code conf} whose value is not the trusted one; a failure
     * names the key and the value.
     */
    static void check(Map<String, Object> conf, Map<String, Object> trusted, String owner)
        throws InvalidTopologyException {
        for (Map.Entry<String, Object> entry : conf.entrySet()) {
            Field field = CONF_FIELDS.get(entry.getKey());
            // the trusted check first: reading a field's annotations is slow the first time
            if (field == null
                || (trusted.containsKey(entry.getKey()) && Objects.equals(trusted.get(entry.getKey()), entry.getValue()))
                || field.getAnnotation(NotConf.class) != null) {
                continue;
            }
            try {
                ConfigValidation.validateField(field, conf);
            } catch (IllegalArgumentException e) {
                throw new WrappedInvalidTopologyException(owner + " has an invalid configuration value for '" + entry.getKey() + "' ("
                    + entry.getValue() + "): " + e.getMessage());
            }
        }
    }

    static Integer intConf(Map<String, Object> conf, String key, String owner) throws InvalidTopologyException {
        Object value = conf.get(key);
        if (value == null) {
            return null;
        }
        try {
            return ObjectReader.getInt(value);
        } catch (IllegalArgumentException e) {
            throw new WrappedInvalidTopologyException("'" + owner + "': configuration " + key + " must be an integer, got '" + value + "'");
        }
    }

    private static Map<String, Field> stormConfigFields() {
        Map<String, Field> fields = new HashMap<>();
        int wanted = Modifier.PUBLIC | Modifier.STATIC | Modifier.FINAL;
        for (Field f : Config.class.getDeclaredFields()) {
            if ((f.getModifiers() & wanted) == wanted && f.getType() == String.class && !f.isSynthetic()) {
                try {
                    fields.put((String) f.get(null), f);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return Collections.unmodifiableMap(fields);
    }
}
