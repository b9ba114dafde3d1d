package io.microburst.plan;

import static io.microburst.plan.PlanChecks.invalid;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.storm.Config;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.ComponentCommon;
import org.apache.storm.generated.ComponentObject;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.SpoutSpec;
import org.apache.storm.generated.StateSpoutSpec;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.tuple.Fields;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.WrappedInvalidTopologyException;

/**
 * A validated topology turned into what the runtime needs: task ids, per-component configuration, stream schemas and
 * subscriptions. Building a plan starts nothing; an invalid topology is refused here with a message that names the
 * component, stream or field at fault.
 *
 * <p>Task ids are the ones Storm gives (see {@link StormTaskIds}): components sorted by id, tasks numbered from 1
 * consecutively over the user's components and the system components Storm adds, whose ids are reserved here.
 *
 * <p>Building reads the components, then hands each step to its own class: {@link PlanChecks} (Microburst settings,
 * groupings), {@link ComponentSizes} (configuration, task and executor counts), {@link TaskNumbering} (task ids) and
 * {@link StreamWiring} (stream schemas and subscriptions).
 *
 * <p>Threading: built on the submitting thread and read-only afterwards, except {@link #setExecutors}, which a
 * rebalance calls under the topology's lifecycle lock before new executors start.
 */
public final class TopologyPlan {

    private final String name;
    private final String stormId;
    private final StormTopology topology;
    private final Map<String, Object> conf;
    private final Map<String, ComponentPlan> components;
    private final Map<Integer, String> taskToComponent;
    private final Map<String, List<Integer>> componentToSortedTasks;
    private final Map<String, Map<String, Fields>> componentToStreamToFields;
    private final int maxTaskId;
    private final Map<String, List<Integer>> systemComponentTasks;

    private TopologyPlan(String name, String stormId, StormTopology topology, Map<String, Object> conf,
                         Map<String, ComponentPlan> components, Map<Integer, String> taskToComponent,
                         Map<String, List<Integer>> componentToSortedTasks,
                         Map<String, Map<String, Fields>> componentToStreamToFields, int maxTaskId,
                         Map<String, List<Integer>> systemComponentTasks) {
        this.name = name;
        this.stormId = stormId;
        this.topology = topology;
        this.conf = conf;
        this.components = components;
        this.taskToComponent = taskToComponent;
        this.componentToSortedTasks = componentToSortedTasks;
        this.componentToStreamToFields = componentToStreamToFields;
        this.maxTaskId = maxTaskId;
        this.systemComponentTasks = systemComponentTasks;
    }

    /**
     * Validates and plans a topology.
     *
     * @param name the topology name
     * @param stormId the id the cluster gives this run of it
     * @param conf the complete topology configuration (defaults already merged)
     * @param topology the topology as submitted
     * @throws InvalidTopologyException naming what is wrong; nothing is started
     */
    public static TopologyPlan build(String name, String stormId, Map<String, Object> conf, StormTopology topology)
        throws InvalidTopologyException {
        return build(name, stormId, conf, topology, Map.of());
    }

    /**
     * As {@link #build(String, String, Map, StormTopology)}, where values equal to those in {@code trusted} (Storm's own
     * defaults, read from its defaults.yaml) are known to be valid and are not validated again.
     */
    public static TopologyPlan build(String name, String stormId, Map<String, Object> conf, StormTopology topology,
                                     Map<String, Object> trusted) throws InvalidTopologyException {
        if (topology == null) {
            throw invalid("Topology '" + name + "' is null");
        }
        PlanConf.check(conf, trusted, "Topology '" + name + "'");
        conf = PlanConf.mergeKryoConf(conf, topology, name);
        PlanChecks.checkMicroburstConf(conf, name);
        Map<String, ComponentCommon> commons = new TreeMap<>();
        Map<String, ComponentObject> objects = new HashMap<>();
        Set<String> spouts = new HashSet<>();
        if (topology.get_spouts() != null) {
            for (Map.Entry<String, SpoutSpec> e : topology.get_spouts().entrySet()) {
                putComponent(commons, e.getKey(), e.getValue().get_common());
                objects.put(e.getKey(), e.getValue().get_spout_object());
                spouts.add(e.getKey());
            }
        }
        if (topology.get_bolts() != null) {
            for (Map.Entry<String, Bolt> e : topology.get_bolts().entrySet()) {
                putComponent(commons, e.getKey(), e.getValue().get_common());
                objects.put(e.getKey(), e.getValue().get_bolt_object());
            }
        }
        if (topology.get_state_spouts() != null && !topology.get_state_spouts().isEmpty()) {
            StateSpoutSpec any = topology.get_state_spouts().values().iterator().next();
            throw invalid("Topology '" + name + "' declares state spouts (" + any + "), which Apache Storm does not run either");
        }
        if (spouts.isEmpty()) {
            throw invalid("Topology '" + name + "' has no spouts: a topology needs at least one spout");
        }
        ComponentSizes sizes = ComponentSizes.of(conf, commons, name);
        TaskNumbering tasks = TaskNumbering.of(topology, conf, sizes);
        Map<String, ComponentPlan> components = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, Object>> e : sizes.confs().entrySet()) {
            String id = e.getKey();
            List<Integer> ids = tasks.componentTasks().get(id);
            components.put(id, new ComponentPlan(id, spouts.contains(id), objects.get(id), commons.get(id), ids,
                Math.min(sizes.parallelisms().get(id), ids.size()), e.getValue()));
        }
        Map<String, Map<String, Fields>> streamFields = StreamWiring.wire(components);
        return new TopologyPlan(name, stormId, topology, conf, Collections.unmodifiableMap(components),
            tasks.taskToComponent(), tasks.componentTasks(), Collections.unmodifiableMap(streamFields),
            tasks.maxTaskId(), tasks.systemTasks());
    }

    private static void putComponent(Map<String, ComponentCommon> commons, String id, ComponentCommon common)
        throws InvalidTopologyException {
        if (commons.put(id, common) != null) {
            throw invalid("Component id '" + id + "' is used by more than one spout or bolt");
        }
    }

    public String name() {
        return name;
    }

    public String stormId() {
        return stormId;
    }

    public StormTopology topology() {
        return topology;
    }

    /**
     * The topology configuration: each call gives a map of its own that user code may write into (as Storm's are),
     * reading the plan's until its first write, which never reaches the plan.
     */
    public Map<String, Object> conf() {
        return new ConfCopy(conf);
    }

    /** Components sorted by id. */
    public Map<String, ComponentPlan> components() {
        return components;
    }

    /** Each component's executor count now, in component order (a rebalance to these changes no count). */
    public Map<String, Integer> executorCounts() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        components.forEach((id, c) -> counts.put(id, c.executors()));
        return counts;
    }

    public ComponentPlan component(String id) {
        return components.get(id);
    }

    public Map<Integer, String> taskToComponent() {
        return taskToComponent;
    }

    public Map<String, List<Integer>> componentToSortedTasks() {
        return componentToSortedTasks;
    }

    public Map<String, Map<String, Fields>> componentToStreamToFields() {
        return componentToStreamToFields;
    }

    /** How many tasks the user's components have. */
    public int taskCount() {
        return taskToComponent.size();
    }

    /**
     * Highest task id of a user component. Ids are Storm's: they run from 1, but the ids Storm gives its system
     * components (see {@link #systemComponentTasks}) are not in {@link #taskToComponent}. Arrays indexed by task id are
     * sized by this.
     */
    public int maxTaskId() {
        return maxTaskId;
    }

    /**
     * The task ids Storm gives the components it adds to the topology ({@code __acker}, {@code __eventlogger},
     * {@code __metrics...}), by component id; empty if Storm could not number the topology. Microburst runs no acker
     * or event logger tasks: those ids are reserved, never used.
     */
    public Map<String, List<Integer>> systemComponentTasks() {
        return systemComponentTasks;
    }

    /**
     * True when tuples from {@code producer} can come back to it through {@code consumer}: both lie on one cycle of
     * the subscription graph (a component subscribing to itself counts). Such edges must never block a producer.
     */
    public boolean onCycle(String producer, String consumer) {
        return reaches(consumer, producer) && reaches(producer, consumer);
    }

    private boolean reaches(String from, String to) {
        ArrayDeque<String> work = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        work.add(from);
        while (!work.isEmpty()) {
            ComponentPlan c = components.get(work.poll());
            for (StreamPlan s : c.streams().values()) {
                for (Subscription sub : s.subscriptions()) {
                    String next = sub.consumer().id();
                    if (next.equals(to)) {
                        return true;
                    }
                    if (seen.add(next)) {
                        work.add(next);
                    }
                }
            }
        }
        return false;
    }

    /** Changes a component's executor count (rebalance); the task count never changes. */
    public void setExecutors(String componentId, int executors) {
        ComponentPlan c = components.get(componentId);
        c.setExecutors(Math.max(1, Math.min(executors, c.taskIds().size())));
    }
    /**
     * Refuses executor counts a rebalance cannot give: an unknown component, or a count outside 1..its task count.
     */
    public void checkRebalance(Map<String, Integer> executorCounts) throws InvalidTopologyException {
        for (Map.Entry<String, Integer> e : executorCounts.entrySet()) {
            ComponentPlan c = component(e.getKey());
            if (c == null) {
                throw new WrappedInvalidTopologyException("Cannot rebalance unknown component '" + e.getKey() + "' of topology '"
                    + name() + "'");
            }
            if (e.getValue() == null || e.getValue() < 1 || e.getValue() > c.taskIds().size()) {
                throw new WrappedInvalidTopologyException("Cannot give component '" + e.getKey() + "' " + e.getValue()
                    + " executors: it must have between 1 and its task count (" + c.taskIds().size() + ")");
            }
        }
    }

    /** Seconds a kill or rebalance waits when its options name none: the message timeout, as Storm does. */
    public int defaultWaitSecs() {
        return ObjectReader.getInt(conf().get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS), 30);
    }
}
