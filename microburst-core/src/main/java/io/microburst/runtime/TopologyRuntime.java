package io.microburst.runtime;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import com.codahale.metrics.Metric;
import io.microburst.MicroburstConfig;
import io.microburst.metrics.ErrorLog;
import io.microburst.metrics.MetricsConsumers;
import io.microburst.metrics.StatsHistory;
import io.microburst.metrics.TaskStats;
import io.microburst.metrics.V2DataPoints;
import io.microburst.plan.ComponentPlan;
import io.microburst.plan.FusionPlan;
import io.microburst.plan.StreamPlan;
import io.microburst.plan.Subscription;
import io.microburst.plan.TopologyPlan;
import io.microburst.plan.UserObjects;
import org.apache.storm.Config;
import org.apache.storm.Constants;
import org.apache.storm.hooks.IWorkerHook;
import org.apache.storm.metric.api.IMetric;
import org.apache.storm.metric.api.IMetricsConsumer;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.task.WorkerTopologyContext;
import org.apache.storm.task.WorkerUserContext;
import org.apache.storm.utils.ObjectReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running topology: its executors and tasks, its timers (ticks, timeouts, metrics, restarts on the cluster's
 * shared timer), its error log and failure policy, and its lifecycle (start, activate, deactivate, kill, rebalance).
 *
 * <p>Lifecycle methods are called by the cluster facade and are synchronized; the hot path never takes a lock.
 */
public final class TopologyRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(TopologyRuntime.class);
    /** The port a one-process "worker" reports; there is no socket behind it. */
    public static final int WORKER_PORT = 1024;
    /** {@code topology.executor.receive.buffer.size} in storm-client's defaults.yaml. */
    static final int STORM_DEFAULT_RECEIVE_BUFFER_SIZE = 32768;
    public static final String HOST = "localhost";

    private final TopologyPlan plan;
    private final ClassLoader loader;
    private final SharedTimer timer;
    private final Consumer<TopologyRuntime> onHalted;
    private final TupleContext tupleContext;
    private final boolean acking;
    private final boolean timeouts;
    private final int timeoutSecs;
    private final int queueSize;
    private final int batchSize;
    private final int failureLimit;
    private final long failureWindowMs;
    private final long restartBackoffMs;
    private final ErrorLog errors;
    private final StormMetricRegistry metricRegistry = new StormMetricRegistry();
    private final Map<String, Object> defaultResources = new HashMap<>();
    private final Map<String, Object> userResources = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor sharedPool;
    private final List<Integer> workerTasks;
    private final List<IWorkerHook> workerHooks = new ArrayList<>();
    private final MetricsConsumers consumers;
    private final Map<Integer, Deque<Long>> failureTimes = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicBoolean> preparedFlags = new ConcurrentHashMap<>();
    /** Timer entries to cancel at stop; added from executor threads too, so never under this object's lock. */
    private final List<ScheduledFuture<?>> schedules = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Set<Long> scheduledBuckets = ConcurrentHashMap.newKeySet();
    private final AtomicLong dropped = new AtomicLong();
    /** Executors holding tuples for a full consumer on a cycle; spouts pause while any does. */
    private final java.util.concurrent.atomic.AtomicInteger overflowingExecutors = new java.util.concurrent.atomic.AtomicInteger();
    private final long launchMillis = System.currentTimeMillis();
    private final StatsHistory statsHistory = new StatsHistory();
    private final WorkDir workDir;

    private volatile Executor[] executors = new Executor[0];
    /** Guards growth of {@link #executors} (defusion) against a concurrent stop. */
    private final Object executorsLock = new Object();
    private volatile BoltTask[] boltsByTask = new BoltTask[0];
    private volatile TaskRunner[] tasksById = new TaskRunner[0];
    private volatile FusionPlan fusion;
    private volatile boolean active;
    private volatile boolean halted;
    private volatile String status = "ACTIVE";
    private volatile String haltReason;
    private volatile boolean stopped;
    private boolean killing;
    private final List<Thread> delayThreads = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final java.util.concurrent.CountDownLatch cutShortDelay = new java.util.concurrent.CountDownLatch(1);
    private ScheduledFuture<?> statsRecorder;

    /**
     * Tuples an executor's receive queue holds: {@link MicroburstConfig#EXECUTOR_QUEUE_SIZE} when set; else Storm's
     * {@code topology.executor.receive.buffer.size} (it means the same thing) when it is not Storm's own default;
     * else {@link MicroburstConfig#DEFAULT_EXECUTOR_QUEUE_SIZE}, since Storm's default was measured to hold more than
     * batches need (docs/ARCHITECTURE.md, "Queue size"). A value from a storm.yaml counts as set.
     */
    private static int queueSize(Map<String, Object> conf) {
        Object own = conf.get(MicroburstConfig.EXECUTOR_QUEUE_SIZE);
        if (own != null) {
            return ObjectReader.getInt(own);
        }
        Integer storms = ObjectReader.getInt(conf.get(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE), null);
        if (storms != null && storms != STORM_DEFAULT_RECEIVE_BUFFER_SIZE) {
            return storms;
        }
        return MicroburstConfig.DEFAULT_EXECUTOR_QUEUE_SIZE;
    }

    public TopologyRuntime(TopologyPlan plan, ClassLoader loader, SharedTimer timer, Consumer<TopologyRuntime> onHalted) {
        this.plan = plan;
        this.loader = loader;
        this.timer = timer;
        this.onHalted = onHalted;
        Map<String, Object> conf = plan.conf();
        this.tupleContext = new TupleContext(plan.topology(), conf, plan.taskToComponent(), plan.componentToSortedTasks(),
            plan.componentToStreamToFields(), plan.stormId());
        Object ackers = conf.get(Config.TOPOLOGY_ACKER_EXECUTORS);
        this.acking = ackers == null || ObjectReader.getInt(ackers) > 0;
        this.timeouts = ObjectReader.getBoolean(conf.get(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS), true);
        this.timeoutSecs = Math.max(1, ObjectReader.getInt(conf.get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS), 30));
        this.queueSize = queueSize(conf);
        this.batchSize = ObjectReader.getInt(conf.get(MicroburstConfig.PRODUCER_BATCH_SIZE), 64);
        this.failureLimit = ObjectReader.getInt(conf.get(MicroburstConfig.TASK_FAILURE_LIMIT), 5);
        this.failureWindowMs = 1000L * ObjectReader.getInt(conf.get(MicroburstConfig.TASK_FAILURE_WINDOW_SECS), 60);
        this.restartBackoffMs = ObjectReader.getInt(conf.get(MicroburstConfig.TASK_RESTART_BACKOFF_MS), 100);
        this.errors = new ErrorLog(HOST, WORKER_PORT);
        this.consumers = new MetricsConsumers((component, error) -> errors.add(component, -1, error));
        int poolSize = ObjectReader.getInt(conf.get(Config.TOPOLOGY_WORKER_SHARED_THREAD_POOL_SIZE), 4);
        this.sharedPool = new ThreadPoolExecutor(poolSize, poolSize, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
            r -> {
                Thread t = new Thread(r, "microburst-" + plan.name() + "-shared");
                t.setDaemon(true);
                return t;
            });
        sharedPool.allowCoreThreadTimeOut(true);
        defaultResources.put(WorkerTopologyContext.SHARED_EXECUTOR, sharedPool);
        List<Integer> tasks = new ArrayList<>();
        for (int t = 1; t <= plan.taskCount(); t++) {
            tasks.add(t);
        }
        this.workerTasks = List.copyOf(tasks);
        this.workDir = WorkDir.create(plan.name(), loader);
    }

    // ---------------------------------------------------------------- lifecycle

    /** Starts worker hooks, metrics consumers, executors and timers. */
    public synchronized void start(boolean startActive) {
        this.active = startActive;
        this.status = startActive ? "ACTIVE" : "INACTIVE";
        startWorkerHooks();
        startMetricsConsumers();
        launchExecutors();
        statsRecorder = timer.every(StatsHistory.RECORD_EVERY_MS, StatsHistory.RECORD_EVERY_MS, this::recordStats);
    }

    private void recordStats() {
        List<TaskStats> all = new ArrayList<>();
        for (ExecutorView v : executorViews()) {
            all.addAll(v.tasks());
        }
        statsHistory.record(System.currentTimeMillis(), all);
    }

    public StatsHistory statsHistory() {
        return statsHistory;
    }

    private void launchExecutors() {
        FusionPlan fusion = FusionPlan.of(plan);
        this.fusion = fusion;
        // Group (component, task) pairs into executors: unfused components get their own executor ranges, except that
        // executor k of every component of a slice set shares one thread; fused components join the executors of the
        // producer tasks that feed them.
        List<List<Object[]>> groups = new ArrayList<>();
        Map<Integer, Integer> groupOfTask = new HashMap<>();
        Map<List<Integer>, Integer> sliceGroups = new HashMap<>();
        for (ComponentPlan c : plan.components().values()) {
            if (fusion.isFused(c.id())) {
                continue;
            }
            List<List<Integer>> ranges = c.tasksPerExecutor();
            for (int k = 0; k < ranges.size(); k++) {
                int g = groups.size();
                if (fusion.isSliced(c.id())) {
                    g = sliceGroups.computeIfAbsent(List.of(fusion.sliceSet(c.id()), k), key -> groups.size());
                }
                if (g == groups.size()) {
                    groups.add(new ArrayList<>());
                }
                for (int taskId : ranges.get(k)) {
                    groups.get(g).add(new Object[] {c, taskId});
                    groupOfTask.put(taskId, g);
                }
            }
        }
        boolean placedAny = true;
        while (placedAny) {
            placedAny = false;
            for (ComponentPlan c : plan.components().values()) {
                String producer = fusion.fusedInto(c.id());
                if (producer == null || groupOfTask.containsKey(c.taskIds().get(0))) {
                    continue;
                }
                List<Integer> producerTasks = plan.component(producer).taskIds();
                if (!groupOfTask.containsKey(producerTasks.get(0))) {
                    continue;
                }
                for (int i = 0; i < c.taskIds().size(); i++) {
                    int group = groupOfTask.get(producerTasks.get(i));
                    groups.get(group).add(new Object[] {c, c.taskIds().get(i)});
                    groupOfTask.put(c.taskIds().get(i), group);
                }
                placedAny = true;
            }
        }
        List<Executor> list = new ArrayList<>();
        List<List<TaskRunner>> runners = new ArrayList<>();
        BoltTask[] bolts = new BoltTask[plan.taskCount() + 1];
        TaskRunner[] byTask = new TaskRunner[plan.taskCount() + 1];
        for (List<Object[]> group : groups) {
            Executor e = new Executor(this, list.size(), executorName(group), queueSize, batchSize);
            List<TaskRunner> tasks = new ArrayList<>();
            for (Object[] member : group) {
                ComponentPlan c = (ComponentPlan) member[0];
                int taskId = (Integer) member[1];
                TaskRunner runner;
                if (c.isSpout()) {
                    runner = new SpoutTask(this, e, c, taskId);
                } else {
                    BoltTask b = new BoltTask(this, e, c, taskId, fusion.isFused(c.id()) || fusion.isSliced(c.id()),
                        fusion.depth(c.id()));
                    bolts[taskId] = b;
                    runner = b;
                }
                byTask[taskId] = runner;
                tasks.add(runner);
            }
            list.add(e);
            runners.add(tasks);
        }
        for (int i = 0; i < list.size(); i++) {
            list.get(i).setTasks(runners.get(i), list.size());
        }
        this.boltsByTask = bolts;
        this.tasksById = byTask;
        this.executors = list.toArray(new Executor[0]);
        int[] cycleGroups = threadCycleGroups();
        for (Executor e : executors) {
            e.setCycles(cycleFlags(e.index, cycleGroups));
        }
        scheduleTimers();
        for (Executor e : executors) {
            e.createThread();
        }
        for (Executor e : executors) {
            e.start();
        }
    }

    private String executorName(List<Object[]> group) {
        StringBuilder components = new StringBuilder();
        int first = Integer.MAX_VALUE;
        int last = Integer.MIN_VALUE;
        String previous = null;
        for (Object[] member : group) {
            String id = ((ComponentPlan) member[0]).id();
            if (!id.equals(previous)) {
                if (previous != null) {
                    components.append('+');
                }
                components.append(id);
                previous = id;
            }
            first = Math.min(first, (Integer) member[1]);
            last = Math.max(last, (Integer) member[1]);
        }
        return "microburst-" + plan.name() + "-" + components + "[" + first + (last > first ? "-" + last : "") + "]";
    }

    private void scheduleTimers() {
        Map<Integer, List<BoltTask>> byFrequency = new HashMap<>();
        for (Executor e : executors) {
            for (TaskRunner t : e.tasks()) {
                if (t instanceof BoltTask b) {
                    Object freq = t.component.conf().get(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS);
                    if (freq != null && ObjectReader.getInt(freq) > 0) {
                        byFrequency.computeIfAbsent(ObjectReader.getInt(freq), k -> new ArrayList<>()).add(b);
                    }
                }
            }
            scheduleExecutorTimers(e);
        }
        // A tick goes to whichever executor runs its task when it fires (a task can move, see defuse).
        byFrequency.forEach((freq, bolts) -> schedules.add(timer.every(freq * 1000L, freq * 1000L, () -> {
            for (BoltTask b : bolts) {
                b.executor.postForTask(b, () -> b.executeTick(freq));
            }
        })));
    }

    /** Timers whose work covers the tasks an executor runs at the time they fire. */
    private void scheduleExecutorTimers(Executor e) {
        List<SpoutTask> spouts = new ArrayList<>();
        for (TaskRunner t : e.tasks()) {
            if (t instanceof SpoutTask s) {
                spouts.add(s);
            }
        }
        if (!consumers.isEmpty()
            && ObjectReader.getBoolean(plan.conf().get(Config.TOPOLOGY_ENABLE_V2_METRICS_TICK), false)) {
            int interval = ObjectReader.getInt(plan.conf().get(Config.TOPOLOGY_V2_METRICS_TICK_INTERVAL_SECONDS), 60);
            long periodMs = Math.max(1, interval) * 1000L;
            schedules.add(timer.every(periodMs, periodMs,
                () -> e.post((Runnable) () -> collectV2Metrics(e, interval))));
        }
        List<SpoutTask> tuned = spouts.stream().filter(SpoutTask::autoTuned).toList();
        if (!tuned.isEmpty() && acking) {
            long period = 1000L * ObjectReader.getInt(
                plan.conf().get(MicroburstConfig.MAX_SPOUT_PENDING_AUTOTUNE_SECS), 120);
            schedules.add(timer.every(period, period,
                () -> e.post((Runnable) () -> tuned.forEach(SpoutTask::autoTune))));
        }
        if (fusion != null && fusion.any()) {
            schedules.add(timer.every(Executor.BALANCE_PERIOD_MS, Executor.BALANCE_PERIOD_MS,
                () -> e.post((Runnable) e::balance)));
        }
        if (acking && timeouts) {
            long half = Math.max(100, timeoutSecs * 500L);
            schedules.add(timer.every(half, half, () -> e.post((Runnable) e::touchQueued)));
        }
        if (!spouts.isEmpty() && acking && timeouts) {
            long period = timeoutSecs * 1000L;
            long nanos = TimeUnit.SECONDS.toNanos(timeoutSecs);
            schedules.add(timer.every(period, period,
                () -> e.post((Runnable) () -> spouts.forEach(s -> s.rotate(nanos)))));
        }
    }

    /**
     * Gives a fused bolt task that turned out slow, with the tasks fused into it, an executor of its own, so its
     * producer runs ahead of it on another thread. Runs on the producer's executor thread between turns (no user code
     * on the stack); the tasks are already prepared and keep their state, held tuples and statistics.
     *
     * @return the new executor, or null when the topology is stopping
     */
    Executor defuse(Executor from, List<TaskRunner> moving, String why) {
        Executor e;
        synchronized (executorsLock) {
            if (halted) {
                return null;
            }
            Executor[] old = executors;
            e = new Executor(this, old.length, nameFor(moving), queueSize, batchSize);
            Executor[] grown = java.util.Arrays.copyOf(old, old.length + 1);
            grown[old.length] = e;
            e.setTasks(moving, grown.length);
            e.adoptStartedTasks();
            for (TaskRunner t : moving) {
                for (Map.Entry<Integer, Map<Integer, Map<String, IMetric>>> bucket : from.registeredMetrics.entrySet()) {
                    Map<String, IMetric> metrics = bucket.getValue().remove(t.taskId);
                    if (metrics != null) {
                        e.registeredMetrics.computeIfAbsent(bucket.getKey(), k -> new HashMap<>()).put(t.taskId, metrics);
                    }
                }
                t.moveTo(e);
            }
            executors = grown;
            e.setCycles(cycleFlags(e.index, threadCycleGroups()));
            e.createThread();
        }
        scheduleExecutorTimers(e);
        if (stopped) {
            cancelSchedules();
        }
        for (TaskRunner t : moving) {
            taskStarted(t);
        }
        LOG.info("Topology {}: {} now has a thread of its own ({}): {}", plan.name(), moving.get(0).componentId(), e,
            why);
        e.start();
        return e;
    }

    private String nameFor(List<TaskRunner> tasks) {
        List<Object[]> group = new ArrayList<>();
        for (TaskRunner t : tasks) {
            group.add(new Object[] {t.component, t.taskId});
        }
        return executorName(group);
    }

    /** Activates or deactivates the spouts (their activate/deactivate run on their own threads). */
    public synchronized void setActive(boolean value) {
        if (stopped) {
            return;
        }
        active = value;
        status = value ? "ACTIVE" : "INACTIVE";
        for (Executor e : executors) {
            for (TaskRunner t : e.tasks()) {
                if (t instanceof SpoutTask s) {
                    Runnable action = value ? s::activate : s::deactivate;
                    e.post(action);
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
        synchronized (this) {
            if (stopped) {
                return;
            }
            if (!killing) {
                killing = true;
                setActive(false);
                status = "KILLED";
            }
        }
        // A second kill with a shorter wait brings the stop forward, as in Storm; the earliest stop wins.
        if (waitSecs <= 0) {
            stopNow();
            onStopped.run();
            return;
        }
        afterDelay("killer", waitSecs, () -> {
            stopNow();
            onStopped.run();
        });
    }

    /** Stops at once (no wait): executors stop after their current turn. Returns when all has stopped. */
    public synchronized void stopNow() {
        cutShortDelay.countDown();
        if (stopped) {
            return;
        }
        killing = true;
        status = "KILLED";
        active = false;
        stopExecutors();
        stopped = true;
        if (statsRecorder != null) {
            statsRecorder.cancel(false);
        }
        cancelSchedules();
        for (IWorkerHook hook : workerHooks) {
            try {
                hook.shutdown();
            } catch (Throwable t) {
                LOG.warn("Worker hook {} failed in shutdown", hook, t);
            }
        }
        consumers.cleanup();
        sharedPool.shutdownNow();
        try {
            sharedPool.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        workDir.close();
    }

    /**
     * Rebalances as Storm does: the status becomes REBALANCING and the spouts are deactivated; after
     * {@code waitSecs} the executors stop and new ones start with the new counts (tasks keep their ids; instances
     * are created and prepared afresh, as in Storm's new workers), and the spouts are activated again if they were.
     */
    public void rebalance(Map<String, Integer> executorCounts, int waitSecs) {
        boolean wasActive;
        synchronized (this) {
            if (stopped || killing) {
                return;
            }
            wasActive = active;
            setActive(false);
            status = "REBALANCING";
        }
        Runnable relaunch = () -> relaunch(executorCounts, wasActive);
        if (waitSecs <= 0) {
            relaunch.run();
        } else {
            afterDelay("rebalancer", waitSecs, relaunch);
        }
    }

    private synchronized void relaunch(Map<String, Integer> executorCounts, boolean activeAfter) {
        if (stopped || killing) {
            return;
        }
        stopExecutors();
        cancelSchedules();
        scheduledBuckets.clear();
        statsHistory.clear();
        executorCounts.forEach(plan::setExecutors);
        halted = false;
        active = activeAfter;
        status = activeAfter ? "ACTIVE" : "INACTIVE";
        launchExecutors();
    }

    private void cancelSchedules() {
        for (ScheduledFuture<?> f : schedules) {
            f.cancel(false);
        }
        schedules.clear();
    }

    /** Runs {@code action} on a short-lived thread after {@code secs}, or at once when the wait is cut short. */
    private void afterDelay(String role, int secs, Runnable action) {
        Thread t = new Thread(() -> {
            try {
                cutShortDelay.await(secs, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            action.run();
        }, "microburst-" + plan.name() + "-" + role);
        t.setDaemon(true);
        delayThreads.add(t);
        t.start();
    }

    /** Waits for the short-lived kill and rebalance threads (after {@link #stopNow()} they end at once). */
    public void awaitHelperThreads() {
        for (Thread t : delayThreads) {
            if (t != Thread.currentThread()) {
                try {
                    t.join(10_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void stopExecutors() {
        Executor[] all;
        synchronized (executorsLock) {
            halted = true;
            all = executors;
        }
        for (Executor e : all) {
            e.requestStop();
        }
        for (Executor e : all) {
            try {
                if (!e.awaitStop(10_000)) {
                    LOG.warn("Executor {} did not stop within 10 s (stuck in user code?)", e);
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops the topology with an error after a task failed too often. Runs the kill on a short-lived thread. */
    private void halt(String reason) {
        if (halted) {
            return;
        }
        haltReason = reason;
        halted = true;
        LOG.error("Stopping topology {}: {}", plan.name(), reason);
        Thread stopper = new Thread(() -> {
            stopNow();
            onHalted.accept(this);
        }, "microburst-" + plan.name() + "-stopper");
        stopper.setDaemon(true);
        stopper.start();
    }

    // ---------------------------------------------------------------- worker hooks, metrics

    private void startWorkerHooks() {
        List<ByteBuffer> hooks = plan.topology().get_worker_hooks();
        if (hooks == null || hooks.isEmpty()) {
            return;
        }
        WorkerUserContext context = new WorkerUserContext(plan.topology(), plan.conf(), plan.taskToComponent(),
            plan.componentToSortedTasks(), plan.componentToStreamToFields(), plan.stormId(), workDir.codeDir(),
            workDir.pidDir(), WORKER_PORT,
            workerTasks, defaultResources, userResources, null, null, null);
        for (ByteBuffer serialized : hooks) {
            byte[] bytes = new byte[serialized.remaining()];
            serialized.duplicate().get(bytes);
            IWorkerHook hook = (IWorkerHook) UserObjects.deserialize(bytes, loader, "worker hook");
            hook.start(plan.conf(), context);
            workerHooks.add(hook);
        }
    }

    @SuppressWarnings("unchecked")
    private void startMetricsConsumers() {
        Object registrations = plan.conf().get(Config.TOPOLOGY_METRICS_CONSUMER_REGISTER);
        if (!(registrations instanceof List<?> list) || list.isEmpty()) {
            return;
        }
        Map<Integer, String> taskToComponent = new HashMap<>(plan.taskToComponent());
        Map<String, List<Integer>> componentTasks = new HashMap<>(plan.componentToSortedTasks());
        int nextTask = plan.taskCount() + 1;
        List<Object[]> created = new ArrayList<>();
        for (Object r : list) {
            Map<String, Object> registration = (Map<String, Object>) r;
            String className = (String) registration.get("class");
            String componentId = Constants.METRICS_COMPONENT_ID_PREFIX + className;
            int taskId = nextTask++;
            taskToComponent.put(taskId, componentId);
            componentTasks.put(componentId, List.of(taskId));
            try {
                Class<?> type = Class.forName(className, true, loader);
                created.add(new Object[] {componentId, taskId, type.getDeclaredConstructor().newInstance(),
                    registration.get("argument")});
            } catch (ReflectiveOperationException | ClassCastException e) {
                throw new IllegalArgumentException("Cannot create metrics consumer '" + className + "': " + e, e);
            }
        }
        for (Object[] c : created) {
            String componentId = (String) c[0];
            int taskId = (Integer) c[1];
            IMetricsConsumer consumer = (IMetricsConsumer) c[2];
            TopologyContext context = new TopologyContext(plan.topology(), plan.conf(), taskToComponent, componentTasks,
                plan.componentToStreamToFields(), new ConcurrentHashMap<>(), plan.stormId(), workDir.codeDir(),
                workDir.pidDir(), taskId,
                WORKER_PORT, workerTasks, defaultResources, userResources, new HashMap<>(), new HashMap<>(),
                new AtomicBoolean(), metricRegistry);
            consumer.prepare(plan.conf(), c[3], context, error -> errors.add(componentId, taskId, error));
            consumers.add(componentId, taskId, consumer);
        }
    }

    /** After a task opened or prepared: schedules collection of the IMetric bucket sizes it registered. */
    void taskStarted(TaskRunner task) {
        for (Integer bucket : task.executor.registeredMetrics.keySet()) {
            long key = ((long) task.executor.index << 32) | bucket;
            if (consumers.isEmpty() || !scheduledBuckets.add(key)) {
                continue;
            }
            Executor e = task.executor;
            long periodMs = bucket * 1000L;
            schedules.add(timer.every(periodMs, periodMs, () -> e.post((Runnable) () -> collectMetrics(e, bucket))));
            if (stopped) {
                cancelSchedules();
            }
        }
    }

    private void collectMetrics(Executor e, int bucket) {
        Map<Integer, Map<String, IMetric>> byTask = e.registeredMetrics.get(bucket);
        if (byTask == null) {
            return;
        }
        long now = System.currentTimeMillis() / 1000;
        for (TaskRunner t : e.tasks()) {
            Map<String, IMetric> metrics = byTask.get(t.taskId);
            if (metrics == null || metrics.isEmpty()) {
                continue;
            }
            List<IMetricsConsumer.DataPoint> points = new ArrayList<>();
            for (Map.Entry<String, IMetric> m : metrics.entrySet()) {
                try {
                    Object value = m.getValue().getValueAndReset();
                    if (value != null) {
                        points.add(new IMetricsConsumer.DataPoint(m.getKey(), value));
                    }
                } catch (Throwable error) {
                    reportError(t, error);
                }
            }
            if (!points.isEmpty()) {
                consumers.deliver(new IMetricsConsumer.TaskInfo(HOST, WORKER_PORT, t.componentId(), t.taskId, now, bucket),
                    points);
            }
        }
    }

    private void collectV2Metrics(Executor e, int interval) {
        long now = System.currentTimeMillis() / 1000;
        for (TaskRunner t : e.tasks()) {
            List<IMetricsConsumer.DataPoint> points = V2DataPoints.of(metricRegistry, t.taskId);
            if (!points.isEmpty()) {
                consumers.deliver(new IMetricsConsumer.TaskInfo(HOST, WORKER_PORT, t.componentId(), t.taskId, now, interval),
                    points);
            }
        }
    }

    // ---------------------------------------------------------------- task support

    /** A fresh context for a task's new instance; forgets the metrics its previous instance registered. */
    TopologyContext newTaskContext(TaskRunner task) {
        for (Map<Integer, Map<String, IMetric>> byTask : task.executor.registeredMetrics.values()) {
            byTask.remove(task.taskId);
        }
        Set<Metric> old = new HashSet<>();
        old.addAll(metricRegistry.getTaskCounters(task.taskId).values());
        old.addAll(metricRegistry.getTaskGauges(task.taskId).values());
        old.addAll(metricRegistry.getTaskHistograms(task.taskId).values());
        old.addAll(metricRegistry.getTaskMeters(task.taskId).values());
        old.addAll(metricRegistry.getTaskTimers(task.taskId).values());
        if (!old.isEmpty()) {
            metricRegistry.deregister(old);
        }
        preparedFlag(task.taskId).set(false);
        return new TopologyContext(plan.topology(), plan.conf(), plan.taskToComponent(), plan.componentToSortedTasks(),
            plan.componentToStreamToFields(), new ConcurrentHashMap<>(), plan.stormId(), workDir.codeDir(),
            workDir.pidDir(), task.taskId,
            WORKER_PORT, workerTasks, defaultResources, userResources, task.executor.executorData,
            task.executor.registeredMetrics, preparedFlag(task.taskId), metricRegistry);
    }

    AtomicBoolean preparedFlag(int taskId) {
        return preparedFlags.computeIfAbsent(taskId, k -> new AtomicBoolean());
    }

    /**
     * A task's user code threw. The error is reported; the task is replaced after a backoff unless it failed more
     * than the limit within the window, in which case the topology stops with an error.
     */
    void taskFailed(TaskRunner task, Throwable error, String phase) {
        LOG.error("Task {} of component '{}' in topology {} failed in {}", task.taskId, task.componentId(),
            plan.name(), phase, error);
        errors.add(task.componentId(), task.taskId, error);
        if (halted) {
            return;
        }
        long now = System.currentTimeMillis();
        int failures;
        Deque<Long> times = failureTimes.computeIfAbsent(task.taskId, k -> new ArrayDeque<>());
        synchronized (times) {
            times.addLast(now);
            while (!times.isEmpty() && now - times.peekFirst() > failureWindowMs) {
                times.removeFirst();
            }
            failures = times.size();
        }
        if (failures > failureLimit) {
            halt("task " + task.taskId + " of component '" + task.componentId() + "' failed " + failures
                + " times within " + failureWindowMs / 1000 + " s (limit " + failureLimit + "); last error in "
                + phase + ": " + error);
            return;
        }
        timer.after(restartBackoffMs, () -> task.executor.postForTask(task, () -> {
            if (halted) {
                return;
            }
            if (task instanceof SpoutTask s) {
                s.restart();
            } else {
                ((BoltTask) task).restart();
            }
        }));
    }

    void reportError(TaskRunner task, Throwable error) {
        if (task == null) {
            errors.add("__system", -1, error);
        } else {
            LOG.warn("Task {} of component '{}' reported an error", task.taskId, task.componentId(), error);
            errors.add(task.componentId(), task.taskId, error);
        }
    }

    void dropped(int count) {
        dropped.addAndGet(count);
    }

    // ---------------------------------------------------------------- accessors

    Executor executor(int index) {
        return executors[index];
    }

    BoltTask bolt(int taskId) {
        return boltsByTask[taskId];
    }

    /** The executor running a task. */
    Executor executorOfTask(int taskId) {
        return tasksById[taskId].executor;
    }

    /**
     * For each executor, whether it can send, through any chain of executors, back to executor {@code from}: then a
     * full queue from {@code from} to it must not block, or each could wait for the other. Tasks of components on a
     * cycle make such executors; so do slices, which send to each other both ways, and a task moved out of a slice.
     * Any thread; reads where every task runs now (a move only splits an executor, so a stale answer is one that still
     * says true).
     */
    boolean[] cycleFlags(int from) {
        synchronized (executorsLock) {
            return cycleFlags(from, threadCycleGroups());
        }
    }

    private static boolean[] cycleFlags(int from, int[] groups) {
        boolean[] flags = new boolean[groups.length];
        for (int j = 0; j < groups.length; j++) {
            flags[j] = j != from && groups[j] == groups[from];
        }
        return flags;
    }

    /**
     * The strongly connected groups of the executor graph (an edge wherever a task of one executor feeds a task of
     * another): two executors in one group can each reach the other. Kosaraju's two passes, iteratively.
     */
    private int[] threadCycleGroups() {
        int n = executors.length;
        java.util.BitSet[] out = new java.util.BitSet[n];
        java.util.BitSet[] in = new java.util.BitSet[n];
        for (int i = 0; i < n; i++) {
            out[i] = new java.util.BitSet(n);
            in[i] = new java.util.BitSet(n);
        }
        for (TaskRunner t : tasksById) {
            if (t == null) {
                continue;
            }
            int a = t.executor.index;
            for (StreamPlan s : t.component.streams().values()) {
                for (Subscription sub : s.subscriptions()) {
                    for (int consumer : sub.consumer().taskIds()) {
                        int b = tasksById[consumer].executor.index;
                        out[a].set(b);
                        in[b].set(a);
                    }
                }
            }
        }
        int[] order = new int[n];
        int done = 0;
        boolean[] visited = new boolean[n];
        int[] stack = new int[n];
        int[] next = new int[n];
        for (int root = 0; root < n; root++) {
            if (visited[root]) {
                continue;
            }
            int depth = 0;
            stack[0] = root;
            next[0] = 0;
            visited[root] = true;
            while (depth >= 0) {
                int v = stack[depth];
                int w = out[v].nextSetBit(next[depth]);
                if (w < 0) {
                    order[done++] = v;
                    depth--;
                } else {
                    next[depth] = w + 1;
                    if (!visited[w]) {
                        visited[w] = true;
                        depth++;
                        stack[depth] = w;
                        next[depth] = 0;
                    }
                }
            }
        }
        int[] group = new int[n];
        java.util.Arrays.fill(group, -1);
        ArrayDeque<Integer> work = new ArrayDeque<>();
        for (int k = n - 1; k >= 0; k--) {
            int root = order[k];
            if (group[root] >= 0) {
                continue;
            }
            group[root] = root;
            work.add(root);
            while (!work.isEmpty()) {
                int v = work.poll();
                for (int w = in[v].nextSetBit(0); w >= 0; w = in[v].nextSetBit(w + 1)) {
                    if (group[w] < 0) {
                        group[w] = root;
                        work.add(w);
                    }
                }
            }
        }
        return group;
    }

    /** Executors of this topology that were busy all through their last balance window. */
    int busyExecutors() {
        int n = 0;
        for (Executor e : executors) {
            if (e.isBusy()) {
                n++;
            }
        }
        return n;
    }

    /** The fusion decisions of the current executors. */
    public FusionPlan fusion() {
        return fusion;
    }

    TupleContext tupleContext() {
        return tupleContext;
    }

    ClassLoader loader() {
        return loader;
    }

    boolean acking() {
        return acking;
    }

    boolean isActive() {
        return active;
    }

    /** The executors, as running now. */
    Executor[] executors() {
        return executors;
    }

    /**
     * Nanoseconds until the first of the topology's spout executors is polled next, while every one of them waits out
     * its spouts' wait strategy; 0 when any of them may be polled any moment (working, held back for another reason,
     * or using a wait strategy of the user's own, whose wait is not known).
     */
    long untilSpoutsPoll() {
        long now = System.nanoTime();
        long soonest = Long.MAX_VALUE;
        for (Executor e : executors) {
            long until = e.untilPoll(now);
            if (until == 0) {
                return 0;
            }
            if (until > 0) {
                soonest = Math.min(soonest, until);
            }
        }
        return soonest == Long.MAX_VALUE ? 0 : soonest;
    }

    boolean spoutsMayRun() {
        return active && !halted && overflowingExecutors.get() == 0;
    }

    void overflowChanged(int delta) {
        overflowingExecutors.addAndGet(delta);
    }

    boolean isHalted() {
        return halted;
    }

    public TopologyPlan plan() {
        return plan;
    }

    public String status() {
        return status;
    }

    /** Why the topology stopped itself, or null. */
    public String haltReason() {
        return haltReason;
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
        return dropped.get();
    }

    /** A view of each executor for statistics: its name, task range and the stats of its tasks. */
    public List<ExecutorView> executorViews() {
        List<ExecutorView> views = new ArrayList<>();
        for (Executor e : executors) {
            Map<String, List<TaskRunner>> byComponent = new java.util.LinkedHashMap<>();
            for (TaskRunner t : e.tasks()) {
                byComponent.computeIfAbsent(t.componentId(), k -> new ArrayList<>()).add(t);
            }
            for (List<TaskRunner> tasks : byComponent.values()) {
                List<TaskStats> stats = new ArrayList<>();
                for (TaskRunner t : tasks) {
                    stats.add(t.stats);
                }
                TaskRunner first = tasks.get(0);
                TaskRunner last = tasks.get(tasks.size() - 1);
                views.add(new ExecutorView(first.componentId(), first.taskId, last.taskId, first instanceof SpoutTask,
                    stats, e.name));
            }
        }
        return views;
    }

    /** Number of executor threads. */
    public int executorCount() {
        return executors.length;
    }

    /** Number of executors as Storm counts them: per component, fused ones included. */
    public int componentExecutorCount() {
        return executorViews().size();
    }

    /** Executor threads started by this topology that are still alive (for hygiene checks). */
    public int liveExecutorThreads() {
        int n = 0;
        for (Executor e : executors) {
            if (!e.isStoppedForGood()) {
                n++;
            }
        }
        return n;
    }

    /**
     * Statistics of one executor.
     *
     * @param thread the name of the thread running these tasks (shared by fused components)
     */
    public record ExecutorView(String componentId, int firstTask, int lastTask, boolean spout, Collection<TaskStats> tasks,
                               String thread) {
    }
}
