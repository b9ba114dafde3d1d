package io.microburst.state;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.storm.Config;
import org.apache.storm.utils.Utils;

/**
 * The provider's settings, read from the JSON object in {@code topology.state.provider.config} (the same key Storm's
 * own providers read): {@code directory}, and as storm-redis's provider, {@code keyClass}, {@code valueClass},
 * {@code keySerializerClass}, {@code valueSerializerClass}. Unknown keys are refused, so a typo does not silently
 * fall back to a default directory.
 */
public final class RocksDbStateConfig {
    /** Where the store lives unless {@code directory} says otherwise, relative to the working directory. */
    public static final String DEFAULT_DIRECTORY = "storm-local/microburst-state";
    private static final Set<String> KEYS = Set.of("directory", "keyClass", "valueClass", "keySerializerClass",
            "valueSerializerClass");

    private final Path directory;
    private final String keyClass;
    private final String valueClass;
    private final String keySerializerClass;
    private final String valueSerializerClass;

    private RocksDbStateConfig(Map<String, Object> json) {
        this.directory = Path.of(string(json, "directory", DEFAULT_DIRECTORY)).toAbsolutePath().normalize();
        this.keyClass = string(json, "keyClass", null);
        this.valueClass = string(json, "valueClass", null);
        this.keySerializerClass = string(json, "keySerializerClass", null);
        this.valueSerializerClass = string(json, "valueSerializerClass", null);
    }

    /** Reads the settings from a topology configuration; an absent key means every default. */
    public static RocksDbStateConfig from(Map<String, Object> topoConf) {
        Object raw = topoConf.get(Config.TOPOLOGY_STATE_PROVIDER_CONFIG);
        if (raw == null) {
            return new RocksDbStateConfig(Map.of());
        }
        if (!(raw instanceof String)) {
            throw new IllegalArgumentException(Config.TOPOLOGY_STATE_PROVIDER_CONFIG
                    + " must be a JSON object in a string, got " + raw.getClass().getName());
        }
        Map<String, Object> json;
        try {
            json = Utils.parseJson((String) raw);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(Config.TOPOLOGY_STATE_PROVIDER_CONFIG + " is not a JSON object: " + raw, e);
        }
        if (json == null) {
            json = Map.of();
        }
        for (String key : json.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException(Config.TOPOLOGY_STATE_PROVIDER_CONFIG + ": unknown key '" + key
                        + "' for " + RocksDbKeyValueStateProvider.class.getName() + " (known: " + KEYS + ")");
            }
        }
        return new RocksDbStateConfig(json);
    }

    private static String string(Map<String, Object> json, String key, String otherwise) {
        Object value = json.get(key);
        if (value == null) {
            return otherwise;
        }
        if (!(value instanceof String) || ((String) value).isBlank()) {
            throw new IllegalArgumentException(Config.TOPOLOGY_STATE_PROVIDER_CONFIG + ": '" + key
                    + "' must be a non-empty string, got " + value);
        }
        return (String) value;
    }

    public Path directory() {
        return directory;
    }

    String keyClass() {
        return keyClass;
    }

    String valueClass() {
        return valueClass;
    }

    String keySerializerClass() {
        return keySerializerClass;
    }

    String valueSerializerClass() {
        return valueSerializerClass;
    }
}
