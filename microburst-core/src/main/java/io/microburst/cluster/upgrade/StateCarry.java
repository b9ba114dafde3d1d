package io.microburst.cluster.upgrade;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.state.State;
import org.apache.storm.state.StateFactory;

/**
 * Moves committed state between namespaces of the topology's state provider, through storm-client's
 * {@link KeyValueState} API, so it works with any provider (the embedded RocksDB one, storm-redis's): a task whose id
 * changes (components added, a task count changed elsewhere, a rename) finds its state under its new namespace
 * ({@code <component>-<task id>}, Storm's convention), and a dropped component starts empty. Every source is read
 * before any destination is written, so namespaces may swap. The entries pass through memory.
 *
 * <p>Threading: the upgrading thread, after the old version has stopped and before the new one starts; the
 * context class loader must be the new version's (the provider and the value classes are loaded by name).
 */
final class StateCarry {
    private StateCarry() {
    }

    static void apply(Map<String, Object> conf, Map<String, String> moves, List<String> cleared) {
        if (moves.isEmpty() && cleared.isEmpty()) {
            return;
        }
        Map<String, List<Map.Entry<Object, Object>>> read = new HashMap<>();
        for (String from : moves.keySet()) {
            List<Map.Entry<Object, Object>> entries = new ArrayList<>();
            open(from, conf).forEach(entries::add);
            read.put(from, entries);
        }
        for (String ns : cleared) {
            empty(open(ns, conf));
        }
        for (Map.Entry<String, String> m : moves.entrySet()) {
            KeyValueState<Object, Object> to = open(m.getValue(), conf);
            empty(to);
            for (Map.Entry<Object, Object> e : read.get(m.getKey())) {
                to.put(e.getKey(), e.getValue());
            }
            to.commit();
        }
    }

    private static void empty(KeyValueState<Object, Object> state) {
        List<Object> keys = new ArrayList<>();
        state.forEach(e -> keys.add(e.getKey()));
        for (Object k : keys) {
            state.delete(k);
        }
        state.commit();
    }

    @SuppressWarnings("unchecked")
    private static KeyValueState<Object, Object> open(String namespace, Map<String, Object> conf) {
        State state = StateFactory.getState(namespace, conf, null);
        state.rollback(); // a prepared transaction of a stopped version is not part of its committed state
        return (KeyValueState<Object, Object>) state;
    }
}
