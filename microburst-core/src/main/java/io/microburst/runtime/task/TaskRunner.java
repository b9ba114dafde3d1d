package io.microburst.runtime.task;

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
import org.apache.storm.task.TopologyContext;
import org.apache.storm.tuple.MessageId;

/**
 * One task slot of an executor: the task's routes, statistics and context, and the current user instance, which is
 * replaced by a fresh one when it fails. Confined to its executor's thread. It reaches the topology only through
 * {@link TaskHost}, and its executor only through its {@link Inbox} and {@link Outbox}.
 *
 * <p>Public for the executor loop ({@code runtime.executor}: start, shutdown, failures on its own thread) and the
 * topology ({@code runtime.topology}: placement, supervision, statistics); the routing and emit members stay
 * package-private.
 */
public abstract class TaskRunner implements Resident {
    static final MessageId UNANCHORED = MessageId.makeUnanchored();

    final TaskHost host;
    /**
     * The inbox and outbox of the executor running this task; they change once at most, when a slow fused task gets an
     * executor of its own (see Placement#defuse). The outbox is read for every emit, the inbox for every tuple drained.
     */
    volatile Inbox inbox;
    volatile Outbox outbox;
    /** Whether tuple trees are tracked: read on every emit, so a field of the task itself. */
    final boolean acking;
    final ComponentPlan component;
    /** The component this task belongs to, as planned. Any thread. */
    public final ComponentPlan component() {
        return component;
    }
    final int taskId;
    /** This task's id. Any thread. */
    public final int taskId() {
        return taskId;
    }
    final TaskStats stats;
    /** This task's counters: written by its executor's thread, read by any (see TaskStats). */
    public final TaskStats stats() {
        return stats;
    }
    /** One tuple (bolt) or tree (spout) in this many is timed: the inverse of topology.stats.sample.rate, as in Storm. */
    final int sampleEvery;
    /** The sampling period in use: {@link #sampleEvery}, stretched while samples come fast (see {@link Sampling}). */
    int samplePeriod;
    private long lastSampleNanos;
    private final Map<String, StreamRoute> routes = new HashMap<>();
    /** The route of the last emit: most tasks emit on one stream, so most lookups end at an identity check. */
    private String lastStreamId;
    private StreamRoute lastRoute;

    TopologyContext context;
    List<ITaskHook> hooks = List.of();
    boolean up;
    final Replacement replacement = new Replacement(this);

    /** When a failed instance is replaced (see {@link Replacement}; the executor's thread). */
    public final Replacement replacement() {
        return replacement;
    }
    private long seed;

    // Targets of the emit in progress, when it has other than one (see chooseTargets).
    Link[] targets = new Link[8];
    int targetCount;
    List<Integer> chosenTasks = List.of();
    /** The task named by the emitDirect in progress, for emit to take; -1 otherwise. */
    private int nextDirectTask = -1;

    TaskRunner(TaskHost host, Inbox inbox, Outbox outbox, ComponentPlan component, int taskId) {
        this.host = host;
        this.inbox = inbox;
        this.outbox = outbox;
        this.acking = host.acking();
        this.component = component;
        this.taskId = taskId;
        this.sampleEvery = Sampling.sampleEvery(component.conf().get(Config.TOPOLOGY_STATS_SAMPLE_RATE));
        this.samplePeriod = sampleEvery;
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
        for (StreamPlan s : streams) {
            if (s.subscriptions().isEmpty()) {
                stats.unsubscribed(s.index());
            }
        }
    }

    /** Names the task of the emitDirect in progress: the emit it calls next takes it ({@link #takeDirectTask()}). */
    final void directTo(int taskId, String streamId) {
        if (taskId < 0) {
            throw new IllegalArgumentException("Component '" + componentId() + "' called emitDirect to task " + taskId
                + " on stream '" + streamId + "'");
        }
        nextDirectTask = taskId;
    }

    /** The task named by the emitDirect in progress, or -1 for a grouped emit; clears it. */
    final int takeDirectTask() {
        int directTask = nextDirectTask;
        if (directTask >= 0) {
            nextDirectTask = -1;
        }
        return directTask;
    }

    /** The collector's flush (spouts and bolts alike): hands pending batches over, on the executor's own thread. */
    public final void flush() {
        if (inbox.isOwnThread()) {
            outbox.flushAll();
        }
    }

    /** The collector's reportError (spouts and bolts alike). */
    public final void reportError(Throwable error) {
        if (StopScope.endedByStop()) {
            StopScope.reportedWhileStopping(this, error);
            return;
        }
        stats.errorReported();
        host.reportError(this, error);
        errorReported(error);
    }

    /** A task may act on an error its instance reported (see BoltTask); by default it is only recorded. */
    void errorReported(Throwable error) {
    }

    @Override
    public final Inbox inbox() {
        return inbox;
    }

    /** This task now runs on the executor of {@code in} and {@code out} (see Placement#defuse). */
    public void moveTo(Inbox in, Outbox out) {
        outbox = out;
        inbox = in;
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
                    if (host.inboxOfTask(t) == inbox) {
                        local.add(t);
                    }
                }
                Grouper g = Groupers.create(sub, taskId, local, context, host.loader());
                if (g != null) {
                    groupers.add(g);
                    subscriptions.add(sub);
                }
            }
            StreamRoute route = new StreamRoute(s, groupers.toArray(new Grouper[0]), subscriptions, this);
            routes.put(s.streamId(), route);
        }
    }

    public final String componentId() {
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
     * Chooses the consumer tasks of an emit. Most emits have one target: it is returned, and nothing is written to this
     * task (a reference stored into a long-lived object costs a G1 write barrier with a full fence, for every tuple).
     * Otherwise the targets go to {@link #targets} and {@link #targetCount}, and {@link #chosenTasks} holds the task
     * ids for the caller of emit, and null is returned.
     *
     * @param directTask the task named by emitDirect, or -1 for a grouped emit
     */
    final Link chooseTargets(StreamRoute r, List<Object> values, int directTask) {
        if (directTask < 0) {
            Link only = r.only;
            if (only != null) {
                return only;
            }
        }
        Grouper[] groupers = r.groupers;
        if (directTask < 0 && !r.direct && groupers.length == 1) {
            // The common case, kept small so that it inlines into emit: one grouped subscription, whose grouper
            // (shuffle, fields) names one task as a number, so no task list is read. Anything else is out of line.
            int task = groupers[0].chooseTask(values);
            if (task >= 0) {
                return r.link(0, task);
            }
        }
        chosenTasks = chooseTargetsSlow(r, values, directTask);
        return null;
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
                    + ") emitted directly to task " + directTask + " on stream '" + r.streamId + "', but that task "
                    + r.describeDirectTarget(host.plan(), directTask));
            }
            addTarget(link);
            return link.targetTasks; // made once per link: a direct emit's result allocates nothing
        }
        Grouper[] groupers = r.groupers;
        if (groupers.length == 0) {
            return List.of(); // nobody subscribes: nothing is built or sent
        }
        if (groupers.length == 1) {
            // a grouper of the user's own: its list is the result, made by it
            List<Integer> chosen = groupers[0].chooseTasks(values);
            addTargets(chosen, r, 0);
            return chosen;
        }
        List<Integer> all = new ArrayList<>();
        for (int g = 0; g < groupers.length; g++) {
            List<Integer> chosen = groupers[g].chooseTasks(values);
            addTargets(chosen, r, g);
            all.addAll(chosen);
        }
        return all;
    }

    private void addTargets(List<Integer> chosen, StreamRoute r, int g) {
        for (int i = 0, n = chosen.size(); i < n; i++) {
            addTarget(r.link(g, chosen.get(i)));
        }
    }

    private void addTarget(Link link) {
        if (targetCount == targets.length) {
            targets = Arrays.copyOf(targets, targetCount * 2);
        }
        targets[targetCount++] = link;
    }

    /** A sample was taken at {@code now} (a {@link System#nanoTime()} reading): adapts the sampling period. */
    final void sampled(long now) {
        long gap = now - lastSampleNanos;
        lastSampleNanos = now;
        samplePeriod = Sampling.adaptPeriod(samplePeriod, sampleEvery, gap);
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

    /** See {@link TaskHooks#ackerEmit}. Only called when the task has hooks. */
    final void ackerEmitHooks(String streamId, List<Object> values) {
        TaskHooks.ackerEmit(host.plan(), hooks, streamId, values, taskId);
    }

    final void emitHooks(List<Object> values, String streamId, List<Integer> outTasks) {
        TaskHooks.emit(hooks, values, streamId, taskId, outTasks);
    }

    /** Creates the user instance and a fresh context with automatic hooks and event sampler; then open or prepare it. */
    final Object newInstance() {
        context = host.newTaskContext(this);
        buildRoutes();
        Object instance = UserObjects.instantiate(component.object(), host.loader(), component.id());
        TaskHooks.addAutoHooks(context, host.plan().conf().get(Config.TOPOLOGY_AUTO_TASK_HOOKS), host.loader(),
            host.eventSampling().samplerFor(component.id()));
        hooks = context.getHooks();
        return instance;
    }

    final AtomicBoolean preparedFlag() {
        return host.preparedFlag(taskId);
    }

    /** Opens or prepares a fresh instance; a failure is reported and the task retried later. */
    public abstract void start();
    /** Replaces a failed instance with a fresh one, opened or prepared like the first (see {@link Replacement}). */
    abstract void restart();
    /** Closes or cleans up the instance, on the executor's thread, when the topology stops. */
    public abstract void shutdown();

    /**
     * Set by the stopping thread once it has given up on this task's thread, found inside a call of a spout 100 ms after
     * its interrupt (see {@code StopSequence}): the thread makes no further call into the instance, and what the call
     * it is in throws is the stop, not a failure. Read once per spout call (a load; never true while running).
     */
    volatile boolean barredByStop;
    /** Set by the stopping thread before it interrupts this task's thread (see {@link #failed}). */
    private volatile boolean interruptedByStop;
    /** The stopping thread gives up on this task's thread (see {@link #barredByStop}). Stopping thread only. */
    public final void barByStop() {
        barredByStop = true;
    }
    /** The stopping thread is about to interrupt this task's thread (see {@link #failed}). Stopping thread only. */
    public final void markInterruptedByStop() {
        interruptedByStop = true;
    }

    /** Whether an instance is open or prepared and has not failed since. Read by the executor's thread. */
    public final boolean isUp() {
        return up;
    }

    /**
     * A failure of user code: the instance is dropped and the runtime decides on a restart. What a call throws because
     * a stop interrupted it (an interrupt among its causes, as Storm's executor loop sees it) or gave up on it is no
     * failure: the instance is dropped, nothing is reported.
     */
    public final void failed(Throwable error, String phase) {
        up = false;
        replacement.cancel();
        if (barredByStop || interruptedByStop && StopInterrupt.causedBy(error)) {
            return;
        }
        host.taskFailed(this, error, phase);
    }

    /** Calls a user instance's close or cleanup; what it throws is reported as this task's error, never rethrown. */
    final void endQuietly(Runnable end) {
        try {
            end.run();
        } catch (Throwable t) {
            host.reportError(this, t);
        }
    }

    final void cleanupHooks() {
        for (ITaskHook hook : hooks) {
            try {
                hook.cleanup();
            } catch (Throwable t) {
                host.reportError(this, t);
            }
        }
        hooks = List.of();
    }
}
