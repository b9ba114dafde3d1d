package io.microburst.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.ComponentCommon;
import org.apache.storm.generated.ComponentObject;

/**
 * One spout or bolt of a planned topology: its tasks, its normalized configuration, its output streams and its inputs.
 * Immutable once the plan is built, except for the executor count, which a rebalance may change.
 *
 * <p>Threading: read-only after planning, except the executor count, which a rebalance sets under the topology's
 * lifecycle lock before new executors start.
 */
public final class ComponentPlan {
    private final String id;
    private final boolean spout;
    private final ComponentObject object;
    private final ComponentCommon common;
    private final List<Integer> taskIds;
    private final Map<String, Object> conf;
    private final Map<String, StreamPlan> streams = new LinkedHashMap<>();
    private final List<Subscription> inputs = new ArrayList<>();
    private volatile int executors;

    ComponentPlan(String id, boolean spout, ComponentObject object, ComponentCommon common, List<Integer> taskIds,
                  int executors, Map<String, Object> conf) {
        this.id = id;
        this.spout = spout;
        this.object = object;
        this.common = common;
        this.taskIds = Collections.unmodifiableList(taskIds);
        this.executors = executors;
        this.conf = Collections.unmodifiableMap(conf);
    }

    public String id() {
        return id;
    }

    public boolean isSpout() {
        return spout;
    }

    /** The serialized user object (Java-serialized spout or bolt, or a shell/json component). */
    public ComponentObject object() {
        return object;
    }

    public ComponentCommon common() {
        return common;
    }

    /** Sorted task ids of this component. */
    public List<Integer> taskIds() {
        return taskIds;
    }

    /**
     * Topology configuration merged with this component's own, as Storm merges it; each call gives a map of its own that
     * user code may write into (see {@link TopologyPlan#conf()}).
     */
    public Map<String, Object> conf() {
        return new ConfCopy(conf);
    }

    public int executors() {
        return executors;
    }

    void setExecutors(int executors) {
        this.executors = executors;
    }

    /** Output streams by id. */
    public Map<String, StreamPlan> streams() {
        return Collections.unmodifiableMap(streams);
    }

    void addStream(StreamPlan stream) {
        streams.put(stream.streamId(), stream);
    }

    /** This component's subscriptions, in input-index order. */
    public List<Subscription> inputs() {
        return Collections.unmodifiableList(inputs);
    }

    void addInput(Subscription subscription) {
        inputs.add(subscription);
    }

    /**
     * Splits the tasks over the executors as Storm does: contiguous ranges whose sizes differ by at most one.
     *
     * @return one list of task ids per executor
     */
    /** The index of the executor (in {@link #tasksPerExecutor()}) that runs one of this component's tasks. */
    public int executorOf(int taskId) {
        int n = Math.min(executors, taskIds.size());
        int base = taskIds.size() / n;
        int extra = taskIds.size() % n;
        int i = taskId - taskIds.get(0);
        int inLarger = extra * (base + 1);
        return i < inLarger ? i / (base + 1) : extra + (i - inLarger) / base;
    }

    /** True when {@code taskId} is the first task of its executor (see {@link #tasksPerExecutor()}). */
    public boolean firstOfExecutor(int taskId) {
        return taskId == taskIds.get(0) || executorOf(taskId) != executorOf(taskId - 1);
    }

    public List<List<Integer>> tasksPerExecutor() {
        int n = Math.min(executors, taskIds.size());
        List<List<Integer>> result = new ArrayList<>(n);
        int base = taskIds.size() / n;
        int extra = taskIds.size() % n;
        int next = 0;
        for (int e = 0; e < n; e++) {
            int size = base + (e < extra ? 1 : 0);
            result.add(taskIds.subList(next, next + size));
            next += size;
        }
        return result;
    }

    @Override
    public String toString() {
        return (spout ? "spout " : "bolt ") + id;
    }
}
