package io.microburst.runtime.topology;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;
import java.util.function.Predicate;
import io.microburst.config.ConfigKeys;
import io.microburst.metrics.ErrorLog;
import io.microburst.metrics.StatsHistory;
import io.microburst.plan.FusionPlan;
import io.microburst.plan.ParallelismPolicy;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.executor.StartGate;
import io.microburst.runtime.task.SpoutTask;
import io.microburst.runtime.task.Switchboard;
import io.microburst.runtime.task.TaskRunner;
import io.microburst.runtime.task.TupleContext;
import org.apache.storm.Config;
import org.apache.storm.utils.ObjectReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running topology and its lifecycle: start, activate and deactivate, kill, rebalance, stop, and halting itself
 * when the {@link Supervisor} says a task failed too often. It wires the collaborators that do the work: the
 * {@link Placement} of tasks on executors (from the {@link ThreadLayout}), the {@link Switchboard} the data path
 * shares, the {@link TopologyTimers}, the {@link WorkerResources} and {@link MetricsWiring} of a Storm worker, and the
 * {@link StatsViews}. Tasks and executors see the topology only through {@link TopologyHost}.
 *
 * <p>Threading: lifecycle methods are called by the cluster facade and are synchronized; the hot path never takes a
 * lock. Status fields are volatile for readers of any thread.
 */
public final class TopologyRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(TopologyRuntime.class);
    /** The port a one-process "worker" reports; there is no socket behind it. */
    public static final int WORKER_PORT = WorkerResources.WORKER_PORT;
    public static final String HOST = WorkerResources.HOST;
    /** The component name under which errors of the runtime itself (not of a task) are listed. */
    static final String ERRORS_OF_THE_RUNTIME = "__system";

    private final TopologyPlan plan;
    private final ClassLoader loader;
    private final SharedTimer timer;
    private final Consumer<TopologyRuntime> onHalted;
    private final TupleContext tupleContext;
    private final boolean acking;
    private final ErrorLog errors = new ErrorLog(HOST, WORKER_PORT);
    private final Switchboard board = new Switchboard();
    private final Supervisor supervisor;
    private final WorkerResources resources;
    private final MetricsWiring metrics;
    private final TopologyTimers timers;
    private final Placement placement;
    private final TopologyHost host;
    private final StatsViews stats = new StatsViews();
    private final StoredSubmission stored;
    private final long launchMillis = System.currentTimeMillis();
    private volatile FusionPlan fusion;
    private volatile String status = "ACTIVE";
    private volatile String haltReason;
    private volatile boolean stopped;
    private volatile boolean killing;
    private final DelayedActions delayed;
    private ScheduledFuture<?> statsRecorder;
    private final AutoParallelism autoParallelism; // when the topology asks for it (ConfigKeys.PARALLELISM), else null
    private final long stopTimeoutMs; // how long a stop waits for all executors together (see StopSequence)

    public TopologyRuntime(TopologyPlan plan, ClassLoader loader, SharedTimer timer, Consumer<TopologyRuntime> onHalted) {
        this.plan = plan;
        this.loader = loader;
        this.timer = timer;
        this.onHalted = onHalted;
        this.delayed = new DelayedActions(plan.name());
        this.stored = new StoredSubmission(plan);
        Map<String, Object> conf = plan.conf();
        this.tupleContext = new TupleContext(plan.topology(), conf, plan.taskToComponent(), plan.componentToSortedTasks(),
            plan.componentToStreamToFields(), plan.stormId());
        Object ackers = conf.get(Config.TOPOLOGY_ACKER_EXECUTORS);
        this.acking = ackers == null || ObjectReader.getInt(ackers) > 0;
        boolean timeouts = ObjectReader.getBoolean(conf.get(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS), true);
        int timeoutSecs = Math.max(1, ObjectReader.getInt(conf.get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS), 30));
        int queueSize = ReceiveQueueSize.of(conf);
        int batchSize = ProducerBatchSize.of(conf, queueSize);
        this.stopTimeoutMs = Math.max(1, ObjectReader.getInt(conf.get(ConfigKeys.EXECUTOR_STOP_TIMEOUT_MS), 10_000));
        this.supervisor = new Supervisor(plan.name(), conf, timer, board, errors, this::halt);
        this.resources = new WorkerResources(plan, loader);
        this.metrics = new MetricsWiring(plan, loader, resources, supervisor);
        this.timers = new TopologyTimers(plan, timer, metrics, acking, timeouts, timeoutSecs);
        this.host = new TopologyHost(plan, loader, tupleContext, acking, board, resources, supervisor, timers);
        this.placement = new Placement(plan.name(), board, host, host, loader, queueSize, batchSize);
        host.attach(placement);
        this.autoParallelism = ParallelismPolicy.enabled(conf) ? new AutoParallelism(plan, placement::executors,
            () -> fusion, errors, counts -> rebalance(counts, 1, () -> { }), () -> "ACTIVE".equals(status)) : null;
    }

    /** Starts worker hooks, metrics consumers, executors and timers. */
    public synchronized void start(boolean startActive) {
        if (stopped) {
            throw new IllegalStateException("topology '" + plan.name() + "' was stopped before it started (closed?)");
        }
        board.setActive(startActive);
        this.status = startActive ? "ACTIVE" : "INACTIVE";
        resources.startWorkerHooks();
        metrics.start();
        launchExecutors();
        statsRecorder = timer.every(StatsHistory.RECORD_EVERY_MS, StatsHistory.RECORD_EVERY_MS,
            () -> stats.record(placement.executors()));
        if (autoParallelism != null) {
            autoParallelism.start(timer);
        }
    }

    public StatsHistory statsHistory() {
        return stats.history();
    }

    private void launchExecutors() {
        FusionPlan f = FusionPlan.of(plan);
        this.fusion = f;
        host.setFusion(f);
        Executor[] executors = placement.build(plan, f);
        timers.scheduleAll(executors, f);
        for (Executor e : executors) {
            e.createThread();
        }
        for (Executor e : executors) {
            e.start();
        }
    }

    /** Before {@link #start}: its executors start only {@code gate}'s early tasks until it opens (an upgrade's). */
    public void holdLateTasks(StartGate gate) {
        host.setStartGate(gate);
    }

    /** Activates or deactivates the spouts (their activate/deactivate run on their own threads). */
    public synchronized void setActive(boolean value) {
        if (stopped) {
            return;
        }
        board.setActive(value);
        status = value ? "ACTIVE" : "INACTIVE";
        for (Executor e : placement.executors()) {
            for (TaskRunner t : e.tasks()) {
                if (t instanceof SpoutTask s) {
                    e.post(value ? s::activate : s::deactivate);
                }
            }
        }
    }

    /**
     * Kills the topology as Storm does: at once the status becomes KILLED and the spouts are deactivated; after
     * {@code waitSecs} (tuples in flight keep being processed meanwhile, ticks keep coming) every executor stops,
     * closing its tasks on its own thread, and {@code onStopped} runs. With a wait, this returns at once and a
     * short-lived thread does the stop; without one, it returns once everything has stopped.
     */
    public void kill(int waitSecs, Runnable onStopped) {
        if (!markKilled()) {
            onStopped.run(); // halted: it stayed listed until this kill
            return;
        }
        Runnable stop = () -> {
            stop(true, null);
            onStopped.run();
        };
        // A second kill with a shorter wait brings the stop forward, as in Storm; the earliest stop wins.
        if (waitSecs <= 0) {
            stop.run();
        } else {
            delayed.after("killer", waitSecs, stop);
        }
    }

    /** Status KILLED, spouts deactivated; false if the topology had stopped already. */
    private synchronized boolean markKilled() {
        if (!stopped && !killing) {
            killing = true;
            setActive(false);
            status = "KILLED";
        }
        return !stopped;
    }

    /**
     * As {@link #kill} without a wait, for an upgrade, except that an executor whose tasks are all of {@code mayTrail}'s
     * components is not waited for once its loop ended: its closes (old Trident coordinators' ZooKeeper clients) go on
     * while the new version starts. Returns what ends the stop, to run once: waits for them, releases the resources.
     */
    public Runnable killLeavingCloses(Predicate<String> mayTrail) {
        markKilled();
        TrailingCloses trailing = stop(true, mayTrail);
        return trailing.isEmpty() ? () -> { } : () -> {
            trailing.await();
            release();
        };
    }

    /** Stops at once (no wait): executors stop after their current turn. Returns when all has stopped. */
    public void stopNow() {
        stop(false, null);
    }

    /**
     * Stops; with {@code drain} (a kill), producers stop first and every executor executes what already waits in its
     * queues before it stops, for at most half the stop timeout, so tuples in flight are not lost. Then the resources
     * are released, unless some executors' closes trail ({@link #killLeavingCloses}).
     */
    private synchronized TrailingCloses stop(boolean drain, Predicate<String> mayTrail) {
        delayed.cutShort();
        if (stopped) {
            return TrailingCloses.NONE;
        }
        killing = true;
        if (haltReason == null) {
            status = "KILLED";
        }
        board.setActive(false);
        TrailingCloses trailing = StopSequence.stop(plan, placement, stopTimeoutMs, drain, mayTrail);
        stopped = true;
        if (trailing.isEmpty()) {
            release();
        }
        return trailing;
    }

    /** After the executors stopped: ends the topology's timers, worker hooks, metrics and resources. */
    private synchronized void release() {
        if (statsRecorder != null) {
            statsRecorder.cancel(false);
        }
        if (autoParallelism != null) {
            autoParallelism.stop();
        }
        timers.close();
        resources.shutdownWorkerHooks();
        metrics.cleanup();
        resources.close();
    }

    /**
     * Rebalances as Storm does: the status becomes REBALANCING and the spouts are deactivated; after
     * {@code waitSecs} the executors stop and new ones start with the new counts (tasks keep their ids; instances
     * are created and prepared afresh, as in Storm's new workers), and the spouts are activated again if they were;
     * {@code atRelaunch} runs first when the new executors are about to start. {@link #eventSampling()} is kept.
     */
    public void rebalance(Map<String, Integer> executorCounts, int waitSecs, Runnable atRelaunch) {
        boolean wasActive;
        synchronized (this) {
            if (stopped || killing) {
                return;
            }
            wasActive = board.isActive();
            setActive(false);
            status = "REBALANCING";
        }
        Runnable relaunch = () -> relaunch(executorCounts, wasActive, atRelaunch);
        if (waitSecs <= 0) {
            relaunch.run();
        } else {
            delayed.after("rebalancer", waitSecs, relaunch);
        }
    }

    private synchronized void relaunch(Map<String, Integer> executorCounts, boolean activeAfter,
                                       Runnable atRelaunch) {
        if (stopped || killing) {
            return;
        }
        atRelaunch.run();
        StopSequence.stop(plan, placement, stopTimeoutMs, false, null);
        timers.cancelAll();
        stats.history().clear();
        executorCounts.forEach(plan::setExecutors);
        board.setHalted(false);
        board.setActive(activeAfter);
        status = activeAfter ? "ACTIVE" : "INACTIVE";
        launchExecutors();
    }

    /** Waits for the short-lived kill and rebalance threads (after {@link #stopNow()} they end at once). */
    public void awaitHelperThreads() {
        delayed.await();
    }

    /**
     * Stops the topology with an error after a task failed more often than the user's failure limit. Runs the stop on a
     * short-lived thread. The topology stays listed, status HALTED, with the reason among its errors, until killed.
     */
    private void halt(String reason) {
        if (board.isHalted() || killing || stopped) {
            return; // no lock: an executor thread halts, and stopNow holds the lock while it waits for executors
        }
        haltReason = reason;
        status = "HALTED";
        board.setHalted(true);
        errors.add(ERRORS_OF_THE_RUNTIME, -1, new IllegalStateException("Topology '" + plan.name() + "' halted: " + reason));
        LOG.error("Stopping topology {}: {}", plan.name(), reason);
        Thread stopper = new Thread(() -> {
            stopNow();
            onHalted.accept(this);
        }, "microburst-" + plan.name() + "-stopper");
        stopper.setDaemon(true);
        stopper.start();
    }

    /** The fusion decisions of the current executors. */
    public FusionPlan fusion() {
        return fusion;
    }

    /** Automatic parallelism, or null when the topology did not ask for it. */
    AutoParallelism autoParallelism() {
        return autoParallelism;
    }

    /** The executors, as running now. */
    Executor[] executors() {
        return placement.executors();
    }

    /** Storm's debug event sampling of the topology's tasks, which task restarts and rebalances keep. */
    public io.microburst.runtime.task.EventSampling eventSampling() {
        return host.eventSampling();
    }

    public TopologyPlan plan() {
        return plan;
    }

    /** The class loader its components are made with. */
    public ClassLoader classLoader() {
        return loader;
    }

    /** The configuration and topology Nimbus keeps (rebalances may override some). */
    public StoredSubmission stored() {
        return stored;
    }

    public String status() {
        return status;
    }

    /** Why the topology stopped itself, or null. */
    public String haltReason() {
        return haltReason;
    }

    /** The topology's working directory (the parent of its code and pid directories); deleted when it stops. */
    public java.nio.file.Path workingDirectory() {
        return resources.workingDirectory();
    }

    public boolean isStopped() {
        return stopped;
    }

    public int uptimeSecs() {
        return (int) ((System.currentTimeMillis() - launchMillis) / 1000);
    }

    public ErrorLog errors() {
        return errors;
    }

    /** Tuples dropped because the topology was stopped while their producer waited for room. */
    public long droppedTuples() {
        return board.droppedTotal();
    }

    /** A view of each executor for statistics: its name, task range and the stats of its tasks. */
    public List<ExecutorView> executorViews() {
        return StatsViews.of(placement.executors());
    }

    /** A live view of each executor thread: the tasks fused into it, its queue fill and backpressure time. */
    public List<ThreadView> threadViews() {
        return StatsViews.threads(placement.executors());
    }

    /** Number of executor threads. */
    public int executorCount() {
        return placement.executors().length;
    }

    /** Number of executors as Storm counts them: per component, fused ones included. */
    public int componentExecutorCount() {
        return executorViews().size();
    }

    /** Executor threads started by this topology that are still alive (for hygiene checks). */
    public int liveExecutorThreads() {
        return StatsViews.live(placement.executors());
    }
}
