package io.microburst.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import io.microburst.metrics.TaskStats;
import io.microburst.plan.ComponentPlan;
import io.microburst.plan.StreamPlan;
import io.microburst.plan.Subscription;
import io.microburst.plan.UserObjects;
import io.microburst.routing.Grouper;
import io.microburst.routing.Groupers;
import org.apache.storm.Config;
import org.apache.storm.hooks.ITaskHook;
import org.apache.storm.hooks.info.EmitInfo;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.tuple.MessageId;

/**
 * One task slot of an executor: the task's routes, statistics and context, and the current user instance, which is
 * replaced by a fresh one when it fails. Confined to its executor's thread.
 */
abstract class TaskRunner {
    static final MessageId UNANCHORED = MessageId.makeUnanchored();

    final TopologyRuntime topology;
    /** The executor running this task; changes once at most, when a slow fused task gets its own (see defuse). */
    volatile Executor executor;
    final ComponentPlan component;
    final int taskId;
    final TaskStats stats;
    /** One tuple (bolt) or tree (spout) in this many is timed: the inverse of topology.stats.sample.rate, as in Storm. */
    final int sampleEvery;
    private final Map<String, StreamRoute> routes = new HashMap<>();
    /** The route of the last emit: most tasks emit on one stream, so most lookups end at an identity check. */
    private String lastStreamId;
    private StreamRoute lastRoute;

    TopologyContext context;
    List<ITaskHook> hooks = List.of();
    boolean up;
    private long seed;

    // Targets of the emit in progress.
    Link[] targets = new Link[8];
    int targetCount;

    TaskRunner(TopologyRuntime topology, Executor executor, ComponentPlan component, int taskId) {
        this.topology = topology;
        this.executor = executor;
        this.component = component;
        this.taskId = taskId;
        this.sampleEvery = sampleEvery(component.conf().get(Config.TOPOLOGY_STATS_SAMPLE_RATE));
        this.seed = Double.doubleToLongBits(Math.random()) ^ ((long) taskId << 32) ^ System.nanoTime();
        List<StreamPlan> streams = new ArrayList<>(component.streams().values());
        String[] outStreams = new String[streams.size()];
        for (StreamPlan s : streams) {
            outStreams[s.index()] = s.streamId();
        }
        List<Subscription> inputs = component.inputs();
        String[] inComponents = new String[inputs.size()];
        String[] inStreams = new String[inputs.size()];
        for (Subscription s : inputs) {
            inComponents[s.inputIndex()] = s.stream().componentId();
            inStreams[s.inputIndex()] = s.stream().streamId();
        }
        this.stats = new TaskStats(taskId, component.id(), outStreams, inComponents, inStreams);
    }

    /** This task now runs on {@code target} (see {@link TopologyRuntime#defuse}). */
    void moveTo(Executor target) {
        executor = target;
    }

    /** Builds groupers; needs a context, so it runs once the first context exists. */
    final void buildRoutes() {
        if (!routes.isEmpty() || component.streams().isEmpty()) {
            return;
        }
        for (StreamPlan s : component.streams().values()) {
            List<Grouper> groupers = new ArrayList<>();
            List<Subscription> subscriptions = new ArrayList<>();
            for (Subscription sub : s.subscriptions()) {
                List<Integer> local = new ArrayList<>();
                for (int t : sub.consumer().taskIds()) {
                    if (topology.executorOfTask(t) == executor) {
                        local.add(t);
                    }
                }
                Grouper g = Groupers.create(sub, taskId, local, context, topology.loader());
                if (g != null) {
                    groupers.add(g);
                    subscriptions.add(sub);
                }
            }
            StreamRoute route = new StreamRoute(s, groupers.toArray(new Grouper[0]), subscriptions, this);
            routes.put(s.streamId(), route);
        }
    }

    final String componentId() {
        return component.id();
    }

    final StreamRoute route(String streamId) {
        if (streamId == lastStreamId) {
            return lastRoute;
        }
        StreamRoute r = lookUpRoute(streamId);
        lastStreamId = streamId;
        lastRoute = r;
        return r;
    }

    private StreamRoute lookUpRoute(String streamId) {
        StreamRoute r = routes.get(streamId);
        if (r == null) {
            throw new IllegalArgumentException("Component '" + component.id() + "' (task " + taskId
                + ") emitted on stream '" + streamId + "', which it did not declare (declared: "
                + component.streams().keySet() + ")");
        }
        return r;
    }

    /**
     * Chooses the consumer tasks of an emit into {@link #targets}.
     *
     * @param directTask the task named by emitDirect, or -1 for a grouped emit
     * @return the task ids to give back to the caller of emit
     */
    final List<Integer> chooseTargets(StreamRoute r, List<Object> values, int directTask) {
        Grouper[] groupers = r.groupers;
        if (directTask < 0 && !r.direct && groupers.length == 1) {
            // The common case, kept small so that it inlines into emit: one grouped subscription.
            List<Integer> chosen = groupers[0].chooseTasks(values);
            if (chosen.size() == 1) {
                targets[0] = r.links[0][chosen.get(0)];
                targetCount = 1;
                return chosen;
            }
            targetCount = 0;
            addTargets(chosen, r.links[0]);
            return chosen;
        }
        return chooseTargetsSlow(r, values, directTask);
    }

    private List<Integer> chooseTargetsSlow(StreamRoute r, List<Object> values, int directTask) {
        targetCount = 0;
        if (directTask >= 0 || r.direct) {
            if (!r.direct) {
                throw new IllegalArgumentException("Component '" + component.id() + "' (task " + taskId
                    + ") called emitDirect on stream '" + r.streamId + "', which is not declared direct");
            }
            if (directTask < 0) {
                throw new IllegalArgumentException("Component '" + component.id() + "' (task " + taskId
                    + ") called emit on direct stream '" + r.streamId + "'; use emitDirect");
            }
            Link link = directTask < r.directLinks.length ? r.directLinks[directTask] : null;
            if (link == null) {
                throw new IllegalArgumentException("Component '" + component.id() + "' (task " + taskId
                    + ") emitted directly to task " + directTask + " on stream '" + r.streamId
                    + "', but that task does not consume the stream");
            }
            addTarget(link);
            return List.of(directTask);
        }
        Grouper[] groupers = r.groupers;
        if (groupers.length == 0) {
            return List.of();
        }
        List<Integer> all = new ArrayList<>();
        for (int g = 0; g < groupers.length; g++) {
            List<Integer> chosen = groupers[g].chooseTasks(values);
            addTargets(chosen, r.links[g]);
            all.addAll(chosen);
        }
        return all;
    }

    private void addTargets(List<Integer> chosen, Link[] links) {
        for (int i = 0, n = chosen.size(); i < n; i++) {
            addTarget(links[chosen.get(i)]);
        }
    }

    private void addTarget(Link link) {
        if (targetCount == targets.length) {
            targets = Arrays.copyOf(targets, targetCount * 2);
        }
        targets[targetCount++] = link;
    }

    /** Storm's sampling rate as a period: 0.05 is one in 20; a rate of 0 or less never samples. */
    static int sampleEvery(Object rate) {
        double r = rate instanceof Number n ? n.doubleValue() : 0.05;
        if (!(r > 0)) {
            return Integer.MAX_VALUE;
        }
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round(1 / r)));
    }

    /** A random non-zero 64-bit id (xorshift64*), for tuple-tree roots and edges. */
    final long nextId() {
        long x = seed;
        x ^= x >>> 12;
        x ^= x << 25;
        x ^= x >>> 27;
        seed = x;
        long id = x * 0x2545F4914F6CDD1DL;
        return id != 0 ? id : 0x9E3779B97F4A7C15L;
    }

    final void emitHooks(List<Object> values, String streamId, List<Integer> outTasks) {
        EmitInfo info = new EmitInfo(values, streamId, taskId, outTasks);
        for (ITaskHook hook : hooks) {
            hook.emit(info);
        }
    }

    /** Creates the user instance and a fresh context with automatic hooks; the caller then opens or prepares it. */
    final Object newInstance() {
        context = topology.newTaskContext(this);
        buildRoutes();
        Object instance = UserObjects.instantiate(component.object(), topology.loader(), component.id());
        Object hookNames = topology.plan().conf().get(Config.TOPOLOGY_AUTO_TASK_HOOKS);
        if (hookNames instanceof List<?> names) {
            for (Object name : names) {
                try {
                    Class<?> type = Class.forName(String.valueOf(name), true, topology.loader());
                    context.addTaskHook((ITaskHook) type.getDeclaredConstructor().newInstance());
                } catch (ReflectiveOperationException | ClassCastException e) {
                    throw new IllegalArgumentException("Cannot create task hook '" + name + "' listed in "
                        + Config.TOPOLOGY_AUTO_TASK_HOOKS + ": " + e, e);
                }
            }
        }
        hooks = context.getHooks();
        return instance;
    }

    final AtomicBoolean preparedFlag() {
        return topology.preparedFlag(taskId);
    }

    /** Opens or prepares a fresh instance; a failure is reported and the task retried later. */
    abstract void start();

    /** Closes or cleans up the instance, on the executor's thread, when the topology stops. */
    abstract void shutdown();

    /** A failure of user code: the instance is dropped and the runtime decides on a restart. */
    final void failed(Throwable error, String phase) {
        up = false;
        topology.taskFailed(this, error, phase);
    }

    final void cleanupHooks() {
        for (ITaskHook hook : hooks) {
            try {
                hook.cleanup();
            } catch (Throwable t) {
                topology.reportError(this, t);
            }
        }
        hooks = List.of();
    }
}
