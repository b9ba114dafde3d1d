package io.microburst.runtime.topology;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import io.microburst.plan.DecisionCheck;
import io.microburst.plan.FusionPlan;
import io.microburst.plan.PlacementPolicy;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.executor.ExecutorHost;
import io.microburst.runtime.executor.StartGate;
import io.microburst.runtime.task.BoltTask;
import io.microburst.runtime.task.EventSampling;
import io.microburst.runtime.task.Inbox;
import io.microburst.runtime.task.Switchboard;
import io.microburst.runtime.task.TaskHost;
import io.microburst.runtime.task.TaskRunner;
import io.microburst.runtime.task.TreeLog;
import io.microburst.runtime.task.TupleContext;
import io.microburst.reliability.TupleTree;
import org.apache.storm.task.TopologyContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topology as its tasks ({@link TaskHost}) and executors ({@link ExecutorHost}) see it: the only way they reach
 * it. Each call is passed on to the collaborator that owns the answer.
 *
 * <p>Threading: any thread. {@link #attach} and {@link #setFusion} are called by the lifecycle before executor threads
 * start.
 */
final class TopologyHost implements TaskHost, ExecutorHost {
    private static final Logger LOG = LoggerFactory.getLogger(TopologyHost.class);

    private final TopologyPlan plan;
    private final ClassLoader loader;
    private final TupleContext tupleContext;
    private final boolean acking;
    private final Switchboard board;
    private final WorkerResources resources;
    private final Supervisor supervisor;
    private final TopologyTimers timers;
    private volatile Placement placement;
    private final TreeLog treeLog = new TreeLog();
    private volatile FusionPlan fusion;
    private final EventSampling eventSampling = new EventSampling();
    private volatile StartGate startGate = StartGate.OPEN;

    TopologyHost(TopologyPlan plan, ClassLoader loader, TupleContext tupleContext, boolean acking, Switchboard board,
        WorkerResources resources, Supervisor supervisor, TopologyTimers timers) {
        this.plan = plan;
        this.loader = loader;
        this.tupleContext = tupleContext;
        this.acking = acking;
        this.board = board;
        this.resources = resources;
        this.supervisor = supervisor;
        this.timers = timers;
    }

    /** Cuts undone, by component, with the rate at the cut when it was undone; any thread. */
    private final Map<String, Double> refusedCuts = new ConcurrentHashMap<>();

    /** Executor threads (their balancers), before a cut. */
    @Override
    public boolean cutRefused(String componentId, double rate) {
        Double atUndo = refusedCuts.get(componentId);
        return atUndo != null && !DecisionCheck.loadChanged(atUndo, rate);
    }

    /**
     * The thread of the executor whose cut failed its check: the tasks move back into it ({@link CutReturn}), and the
     * executor they leave stops.
     */
    @Override
    public void undoCut(Inbox home, BoltTask moved, double rateBefore, String why) {
        refusedCuts.put(moved.componentId(), rateBefore);
        Executor to = placement.executors()[home.index()];
        Executor away = placement.executorOf(moved);
        TaskRunner[] back = CutReturn.bringBack(placement, board, to, moved);
        if (back == null) {
            LOG.warn("Topology {}: {}; it stays cut ({} did not let go of it in {} ms, or the topology stops), and "
                + "is not made again until the load there changes", plan.name(), why, away, CutReturn.WAIT_MS);
            return;
        }
        timers.cancelExecutor(away);
        timers.scheduleMetrics(to);
        LOG.warn("Topology {}: {}; {} runs fused in {} again (same instances, nothing replayed), and that cut is not "
            + "made again until the load there changes", plan.name(), why, moved.componentId(), to);
    }

    @Override
    public PlacementPolicy.Mode placementMode() {
        return PlacementPolicy.Mode.of(plan.conf());
    }

    void attach(Placement p) {
        this.placement = p;
    }

    void setFusion(FusionPlan f) {
        this.fusion = f;
    }

    @Override
    public TopologyPlan plan() {
        return plan;
    }

    @Override
    public TreeLog treeLog() {
        return treeLog;
    }

    /** A spout's executor thread, after its timeout sweep (see {@link TupleWhereabouts#traceTimedOut}). */
    @Override
    public void treesTimedOut(List<TupleTree> trees) {
        TupleWhereabouts.traceTimedOut(placement.executors(), trees, treeLog, timers.timer());
    }

    @Override
    public ClassLoader loader() {
        return loader;
    }

    @Override
    public TupleContext tupleContext() {
        return tupleContext;
    }

    @Override
    public boolean acking() {
        return acking;
    }

    @Override
    public boolean isActive() {
        return board.isActive();
    }

    @Override
    public boolean isHalted() {
        return board.isHalted();
    }

    @Override
    public TopologyContext newTaskContext(TaskRunner task) {
        return resources.newTaskContext(task, placement.executorOf(task));
    }

    @Override
    public AtomicBoolean preparedFlag(int taskId) {
        return resources.preparedFlag(taskId);
    }

    /** Before the executors start (the upgrading thread): which tasks start early (see {@link StartGate}). */
    void setStartGate(StartGate gate) {
        startGate = gate;
    }

    @Override
    public StartGate startGate() {
        return startGate;
    }

    @Override
    public void taskStarted(TaskRunner task) {
        timers.scheduleMetrics(placement.executorOf(task));
    }

    @Override
    public void taskFailed(TaskRunner task, Throwable error, String phase) {
        supervisor.taskFailed(task, error, phase);
    }

    @Override
    public void reportError(TaskRunner task, Throwable error) {
        supervisor.reportError(task, error);
    }

    @Override
    public BoltTask bolt(int taskId) {
        return placement.bolt(taskId);
    }

    @Override
    public Inbox inboxOfTask(int taskId) {
        return placement.inboxOfTask(taskId);
    }

    @Override
    public boolean chainsInto(String componentId, String headId) {
        return fusion.chainsInto(componentId, headId);
    }

    /**
     * Gives a fused bolt task that turned out slow, with the tasks fused into it, an executor of its own, so its
     * producer runs ahead of it on another thread. Runs on the producer's executor thread between turns (no user code
     * on the stack); the tasks are already prepared and keep their state, held tuples and statistics.
     */
    @Override
    public Executor defuse(Executor from, List<TaskRunner> moving, String why) {
        Executor e = placement.add(from, moving);
        if (e == null) {
            return null;
        }
        timers.scheduleExecutor(e, fusion);
        timers.scheduleMetrics(e);
        LOG.info("Topology {}: {} now has a thread of its own ({}): {}", plan.name(), moving.get(0).componentId(), e,
            why);
        e.start();
        return e;
    }

    @Override
    public EventSampling eventSampling() {
        return eventSampling;
    }
}
