package io.microburst.cluster.upgrade;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.WrappedInvalidTopologyException;

/**
 * What the operator asked of an upgrade, read from the new version's configuration (the keys of
 * {@code MicroburstConfig}: {@code microburst.upgrade.*}, which {@code microburst upgrade} sets).
 *
 * @param waitSecs how long the old version's tuples in flight may take to finish; -1: the old version's message
 *     timeout, as a kill's default wait
 * @param renames old component id to new component id, for state carried across a rename
 * @param dropState components (old ids) whose state the new version does not carry: it starts empty
 */
public record UpgradeOptions(int waitSecs, Map<String, String> renames, Set<String> dropState) {
    public static final String UPGRADE = "microburst.upgrade";
    public static final String WAIT_SECS = "microburst.upgrade.wait.secs";
    public static final String RENAME = "microburst.upgrade.rename";
    public static final String DROP_STATE = "microburst.upgrade.drop.state";
    /** The name the operator upgrades; a main that submits another name is refused. */
    public static final String NAME = "microburst.upgrade.name";
    /** Set in a rebalance's configuration overrides, asks the server for a rollback to the previous version. */
    public static final String ROLLBACK = "microburst.upgrade.rollback";
    /**
     * Set in a rebalance's configuration overrides, announces an upgrade of a running topology: storm-client's
     * {@code StormSubmitter} asks {@code isTopologyNameAllowed} before it submits, which a running name is not.
     */
    public static final String EXPECT = "microburst.upgrade.expect";

    /** Whether {@code conf} asks that a submit of a running topology's name be taken as its new version. */
    public static boolean requested(Map<String, Object> conf) {
        return conf != null && ObjectReader.getBoolean(conf.get(UPGRADE), false);
    }

    /** The options in {@code conf}. */
    public static UpgradeOptions from(String name, Map<String, Object> conf) throws InvalidTopologyException {
        int wait = -1;
        Object w = conf.get(WAIT_SECS);
        if (w != null) {
            try {
                wait = ObjectReader.getInt(w);
            } catch (RuntimeException e) {
                wait = -2;
            }
            if (wait < 0) {
                throw refused(name, WAIT_SECS + " must be a number of seconds, 0 or more, not '" + w + "'");
            }
        }
        Map<String, String> renames = new LinkedHashMap<>();
        for (String pair : strings(conf.get(RENAME))) {
            int eq = pair.indexOf('=');
            if (eq <= 0 || eq == pair.length() - 1) {
                throw refused(name, "--rename takes OLD=NEW (component ids), not '" + pair + "'");
            }
            renames.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return new UpgradeOptions(wait, renames, new LinkedHashSet<>(strings(conf.get(DROP_STATE))));
    }

    /** A list, or a string of comma-separated entries, or a map of old to new (renames). */
    private static List<String> strings(Object value) {
        if (value == null) {
            return List.of();
        }
        if (value instanceof Map<?, ?> map) {
            return map.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
        }
        Collection<?> items = value instanceof Collection<?> c ? c : List.of(String.valueOf(value).split(","));
        return items.stream().map(String::valueOf).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    static InvalidTopologyException refused(String name, String why) {
        return new WrappedInvalidTopologyException("Upgrade of topology '" + name + "' refused: " + why);
    }
}
