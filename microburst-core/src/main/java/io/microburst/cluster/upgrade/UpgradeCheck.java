package io.microburst.cluster.upgrade;

import io.microburst.plan.TopologyPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.InvalidTopologyException;

/**
 * The compatibility rules of an upgrade, checked before the old version is touched: each stateful component of the
 * old version carries its state to the component of the same id (or the one {@code --rename} maps it to), which must
 * be stateful with the same state type, unless {@code --drop-state} names it. A carried component keeps its task
 * count (state is kept per task, and fields groupings route keys by task), whatever parallelism the new version asks:
 * the new parallelism becomes its executor count, as a rebalance would make it.
 *
 * <p>Threading: stateless; the upgrading thread.
 */
final class UpgradeCheck {
    private static final String CHECKPOINT = org.apache.storm.spout.CheckpointSpout.CHECKPOINT_COMPONENT_ID;
    /**
     * What the state needs.
     *
     * @param pinnedTasks new component id to the task count it must keep (those whose count the new version changed)
     * @param moves old namespace to new namespace, where a carried task's id changes
     * @param cleared namespaces of the new version whose old state is dropped
     */
    record StatePlan(Map<String, Integer> pinnedTasks, Map<String, String> moves, List<String> cleared) {
    }

    private UpgradeCheck() {
    }

    static StatePlan check(TopologyPlan old, ClassLoader oldLoader, TopologyPlan next, ClassLoader nextLoader,
                           UpgradeOptions options) throws InvalidTopologyException {
        String name = old.name();
        for (Map.Entry<String, String> r : options.renames().entrySet()) {
            if (old.component(r.getKey()) == null) {
                throw UpgradeOptions.refused(name, "--rename " + r.getKey() + "=" + r.getValue()
                    + ": the running version has no component '" + r.getKey() + "'");
            }
            if (next.component(r.getValue()) == null) {
                throw UpgradeOptions.refused(name, "--rename " + r.getKey() + "=" + r.getValue()
                    + ": the new version has no component '" + r.getValue() + "'");
            }
        }
        for (String dropped : options.dropState()) {
            if (old.component(dropped) == null) {
                throw UpgradeOptions.refused(name, "--drop-state " + dropped + ": the running version has no "
                    + "component '" + dropped + "'");
            }
        }
        Map<String, String> oldTypes = StatefulComponents.of(old, oldLoader);
        Map<String, String> newTypes = StatefulComponents.of(next, nextLoader);
        Map<String, Integer> pinned = new HashMap<>();
        Map<String, String> moves = new HashMap<>();
        List<String> cleared = new ArrayList<>();
        boolean carries = false;
        for (Map.Entry<String, String> e : oldTypes.entrySet()) {
            String from = e.getKey();
            String to = options.renames().getOrDefault(from, from);
            String newType = newTypes.get(to);
            boolean checkpoint = StatefulComponents.CHECKPOINT_TYPE.equals(e.getValue());
            if (options.dropState().contains(from)) {
                if (newType != null) {
                    next.component(to).taskIds().forEach(t -> cleared.add(to + "-" + t));
                }
                continue;
            }
            if (newType == null) {
                if (checkpoint) {
                    continue; // no stateful bolt left: nothing to checkpoint
                }
                throw UpgradeOptions.refused(name, "component '" + from + "' keeps state, and the new version has "
                    + (next.component(to) == null ? "no component '" + to + "'" : "'" + to + "' without state")
                    + ": map it with --rename " + from + "=NEW, or give --drop-state " + from);
            }
            if (!newType.equals(e.getValue())) {
                throw UpgradeOptions.refused(name, "component '" + from + "': its state type changed from "
                    + e.getValue() + " to " + newType + ", so its state cannot be carried; give --drop-state "
                    + from + " to start it empty");
            }
            carries |= !checkpoint;
            List<Integer> oldTasks = old.component(from).taskIds();
            List<Integer> newTasks = next.component(to).taskIds();
            if (oldTasks.size() != newTasks.size()) {
                pinned.put(to, oldTasks.size());
                continue; // checked again on the plan with the pinned count
            }
            for (int i = 0; i < oldTasks.size(); i++) {
                String a = from + "-" + oldTasks.get(i);
                String b = to + "-" + newTasks.get(i);
                if (!a.equals(b)) {
                    moves.put(a, b);
                }
            }
        }
        if (carries && inMemory(next.conf())) {
            throw UpgradeOptions.refused(name, "its state is kept in memory (no " + Config.TOPOLOGY_STATE_PROVIDER
                + "), which an upgrade cannot carry; use a durable provider, or give --drop-state for "
                + String.join(", ", oldTypes.keySet().stream().filter(c -> !c.equals(CHECKPOINT)).toList()));
        }
        return new StatePlan(pinned, moves, cleared);
    }

    private static boolean inMemory(Map<String, Object> conf) {
        Object provider = conf.get(Config.TOPOLOGY_STATE_PROVIDER);
        return provider == null || String.valueOf(provider).endsWith(".InMemoryKeyValueStateProvider");
    }
}
