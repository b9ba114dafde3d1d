package io.microburst.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import io.microburst.config.ConfigKeys;
import org.apache.storm.Config;
import org.apache.storm.Constants;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.ComponentCommon;
import org.apache.storm.generated.ComponentObject;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.SpoutSpec;
import org.apache.storm.generated.StateSpoutSpec;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.StreamInfo;
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
 * <p>Threading: built on the submitting thread and read-only afterwards, except {@link #setExecutors}, which a
 * rebalance calls under the topology's lifecycle lock before new executors start.
 */
public final class TopologyPlan {

    /** The stream Storm adds to every component and never sends on (storm-client's StormCommon.SYSTEM_STREAM_ID). */
    static final String SYSTEM_STREAM = "__system";
    private static final Fields SYSTEM_STREAM_FIELDS = new Fields("event");
    /** The other streams Storm's system topology gives user components (acking, metrics, event logging). */
    private static final Set<String> STORM_SYSTEM_STREAMS = Set.of(Constants.METRICS_STREAM_ID, "__eventlog",
        "__ack_init", "__ack_ack", "__ack_fail", "__ack_reset_timeout");

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
        for (String key : List.of(ConfigKeys.EXECUTOR_QUEUE_SIZE, ConfigKeys.PRODUCER_BATCH_SIZE,
            ConfigKeys.PARALLELISM_INTERVAL_SECS, ConfigKeys.EXECUTOR_THREADS_MAX)) {
            Integer value = PlanConf.intConf(conf, key, name);
            if (value != null && value < 1) {
                throw invalid("'" + name + "': configuration " + key + " must be at least 1, got " + value);
            }
        }
        Object max = conf.get(ConfigKeys.TUPLE_MAX_BYTES);
        if (max != null && !(max instanceof Number)) {
            throw invalid("'" + name + "': configuration " + ConfigKeys.TUPLE_MAX_BYTES + " must be a number of bytes, got '"
                + max + "'");
        }
        try {
            PlacementPolicy.Mode.of(conf);
            ParallelismPolicy.enabled(conf);
        } catch (IllegalArgumentException e) {
            throw invalid("'" + name + "': " + e.getMessage());
        }
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
        Integer maxParallelism = PlanConf.intConf(conf, Config.TOPOLOGY_MAX_TASK_PARALLELISM, name);

        Map<String, Map<String, Object>> componentConfs = new LinkedHashMap<>();
        Map<String, Integer> taskCounts = new HashMap<>();
        Map<String, Integer> parallelisms = new HashMap<>();
        for (Map.Entry<String, ComponentCommon> e : commons.entrySet()) {
            String id = e.getKey();
            ComponentCommon common = e.getValue();
            if (id.startsWith("__")) {
                throw invalid("Component id '" + id + "' is reserved: ids starting with '__' belong to the system");
            }
            Map<String, Object> componentConf = PlanConf.componentConf(conf, common, id);
            int parallelism = common.is_set_parallelism_hint() ? common.get_parallelism_hint() : 1;
            if (parallelism < 1) {
                throw invalid("Component '" + id + "' has parallelism " + parallelism + "; it must be at least 1");
            }
            Integer declaredTasks = PlanConf.intConf(componentConf, Config.TOPOLOGY_TASKS, id);
            int tasks = declaredTasks == null ? parallelism : declaredTasks;
            if (tasks < 1) {
                throw invalid("Component '" + id + "' has " + tasks + " tasks (topology.tasks); it must be at least 1");
            }
            Integer componentMax = PlanConf.intConf(componentConf, Config.TOPOLOGY_MAX_TASK_PARALLELISM, id);
            Integer cap = componentMax != null ? componentMax : maxParallelism;
            if (cap != null && cap >= 1) {
                tasks = Math.min(tasks, cap);
                parallelism = Math.min(parallelism, cap);
            }
            componentConfs.put(id, componentConf);
            taskCounts.put(id, tasks);
            parallelisms.put(id, parallelism);
        }

        // Storm's own numbering, system components included; dense from 1 only if Storm cannot number the topology
        Map<Integer, String> stormTasks = StormTaskIds.number(topology, conf, taskCounts);
        Map<String, List<Integer>> stormComponentTasks = new TreeMap<>();
        if (stormTasks != null) {
            for (Map.Entry<Integer, String> e : new TreeMap<>(stormTasks).entrySet()) {
                stormComponentTasks.computeIfAbsent(e.getValue(), k -> new ArrayList<>()).add(e.getKey());
            }
        }
        Map<String, ComponentPlan> components = new LinkedHashMap<>();
        Map<Integer, String> taskToComponent = new HashMap<>();
        Map<String, List<Integer>> componentTasks = new HashMap<>();
        int nextTask = 1;
        int maxTask = 0;
        for (Map.Entry<String, Map<String, Object>> e : componentConfs.entrySet()) {
            String id = e.getKey();
            int tasks = taskCounts.get(id);
            List<Integer> numbered = stormComponentTasks.get(id);
            List<Integer> ids = new ArrayList<>(tasks);
            for (int t = 0; t < tasks; t++) {
                int taskId = numbered != null && numbered.size() == tasks ? numbered.get(t) : nextTask;
                nextTask = taskId + 1;
                taskToComponent.put(taskId, id);
                ids.add(taskId);
                maxTask = Math.max(maxTask, taskId);
            }
            componentTasks.put(id, Collections.unmodifiableList(ids));
            ComponentPlan plan = new ComponentPlan(id, spouts.contains(id), objects.get(id), commons.get(id), ids,
                Math.min(parallelisms.get(id), tasks), e.getValue());
            components.put(id, plan);
        }
        Map<String, List<Integer>> systemTasks = new TreeMap<>();
        stormComponentTasks.forEach((id, ids) -> {
            if (!components.containsKey(id)) {
                systemTasks.put(id, List.copyOf(ids));
            }
        });

        Map<String, Map<String, Fields>> streamFields = new HashMap<>();
        for (ComponentPlan c : components.values()) {
            Map<String, Fields> byStream = new HashMap<>();
            Map<String, StreamInfo> declared = c.common().get_streams() == null ? Map.of() : c.common().get_streams();
            int index = 0;
            for (Map.Entry<String, StreamInfo> s : new TreeMap<>(declared).entrySet()) {
                if (s.getKey().startsWith("__")) {
                    throw invalid("Component '" + c.id() + "' declares stream '" + s.getKey()
                        + "': stream ids starting with '__' belong to the system");
                }
                Fields fields = new Fields(s.getValue().get_output_fields());
                byStream.put(s.getKey(), fields);
                c.addStream(new StreamPlan(c.id(), s.getKey(), fields, s.getValue().is_direct(), index++));
            }
            streamFields.put(c.id(), Collections.unmodifiableMap(byStream));
        }
        streamFields.put(Constants.SYSTEM_COMPONENT_ID, Map.of(
            Constants.SYSTEM_TICK_STREAM_ID, new Fields("rate_secs"),
            Constants.METRICS_TICK_STREAM_ID, new Fields("interval")));

        for (ComponentPlan consumer : components.values()) {
            Map<GlobalStreamId, Grouping> inputs = consumer.common().get_inputs() == null
                ? Map.of() : consumer.common().get_inputs();
            if (consumer.isSpout() && !inputs.isEmpty()) {
                throw invalid("Spout '" + consumer.id() + "' subscribes to streams; only bolts can have inputs");
            }
            List<Map.Entry<GlobalStreamId, Grouping>> sorted = new ArrayList<>(inputs.entrySet());
            sorted.sort((a, b) -> {
                int c = a.getKey().get_componentId().compareTo(b.getKey().get_componentId());
                return c != 0 ? c : a.getKey().get_streamId().compareTo(b.getKey().get_streamId());
            });
            int inputIndex = 0;
            for (Map.Entry<GlobalStreamId, Grouping> in : sorted) {
                GlobalStreamId source = in.getKey();
                ComponentPlan producer = components.get(source.get_componentId());
                if (producer == null) {
                    throw invalid("Component '" + consumer.id() + "' subscribes to unknown component '"
                        + source.get_componentId() + "' (stream '" + source.get_streamId() + "')");
                }
                StreamPlan stream = producer.streams().get(source.get_streamId());
                if (stream == null && SYSTEM_STREAM.equals(source.get_streamId())) {
                    // Storm gives every component this stream and sends nothing on it: subscribing is allowed
                    stream = new StreamPlan(producer.id(), SYSTEM_STREAM, SYSTEM_STREAM_FIELDS, false,
                        producer.streams().size());
                    producer.addStream(stream);
                    Map<String, Fields> byStream = new HashMap<>(streamFields.get(producer.id()));
                    byStream.put(SYSTEM_STREAM, SYSTEM_STREAM_FIELDS);
                    streamFields.put(producer.id(), Collections.unmodifiableMap(byStream));
                } else if (stream == null && STORM_SYSTEM_STREAMS.contains(source.get_streamId())) {
                    throw invalid("Component '" + consumer.id() + "' subscribes to system stream '"
                        + source.get_streamId() + "' of component '" + producer.id() + "': Microburst runs no acker, "
                        + "metrics or event logger tasks and sends nothing on Storm's system streams; only '"
                        + SYSTEM_STREAM + "' (on which Storm sends nothing either) can be subscribed to");
                }
                if (stream == null) {
                    throw invalid("Component '" + consumer.id() + "' subscribes to stream '" + source.get_streamId()
                        + "' of component '" + producer.id() + "', which declares no such stream (declared: "
                        + producer.streams().keySet() + ")");
                }
                checkGrouping(consumer, stream, in.getValue());
                Subscription subscription = new Subscription(stream, consumer, in.getValue(), inputIndex++);
                stream.addSubscription(subscription);
                consumer.addInput(subscription);
            }
        }
        return new TopologyPlan(name, stormId, topology, conf, Collections.unmodifiableMap(components),
            Collections.unmodifiableMap(taskToComponent), Collections.unmodifiableMap(componentTasks),
            Collections.unmodifiableMap(streamFields), maxTask, Collections.unmodifiableMap(systemTasks));
    }

    private static void checkGrouping(ComponentPlan consumer, StreamPlan stream, Grouping grouping)
        throws InvalidTopologyException {
        if (grouping == null || grouping.getSetField() == null) {
            throw invalid("Component '" + consumer.id() + "' subscribes to " + stream + " without a grouping");
        }
        if (grouping.is_set_fields()) {
            for (String field : grouping.get_fields()) {
                if (!stream.fields().contains(field)) {
                    throw invalid("Component '" + consumer.id() + "' groups stream " + stream + " by field '" + field
                        + "', which the stream does not declare (fields: " + stream.fields().toList() + ")");
                }
            }
        }
        if (grouping.is_set_direct() && !stream.isDirect()) {
            throw invalid("Component '" + consumer.id() + "' subscribes to " + stream
                + " with a direct grouping, but the stream is not declared direct");
        }
        if (!grouping.is_set_direct() && stream.isDirect()) {
            throw invalid("Component '" + consumer.id() + "' subscribes to direct stream " + stream
                + " with a non-direct grouping; use directGrouping");
        }
    }

    private static void putComponent(Map<String, ComponentCommon> commons, String id, ComponentCommon common)
        throws InvalidTopologyException {
        if (commons.put(id, common) != null) {
            throw invalid("Component id '" + id + "' is used by more than one spout or bolt");
        }
    }

    private static InvalidTopologyException invalid(String message) {
        return new WrappedInvalidTopologyException(message);
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
        java.util.ArrayDeque<String> work = new java.util.ArrayDeque<>();
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
