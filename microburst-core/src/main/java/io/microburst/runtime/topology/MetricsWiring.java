package io.microburst.runtime.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import com.codahale.metrics.Metric;
import io.microburst.config.ConfigKeys;
import io.microburst.metrics.BuiltinTaskMetrics;
import io.microburst.metrics.MetricsConsumers;
import io.microburst.metrics.V2DataPoints;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.BoltTask;
import io.microburst.runtime.task.TaskRunner;
import org.apache.storm.Config;
import org.apache.storm.Constants;
import org.apache.storm.daemon.StormCommon;
import org.apache.storm.metric.api.IMetric;
import org.apache.storm.metric.api.IMetricsConsumer;
import org.apache.storm.metric.filter.FilterByMetricName;
import org.apache.storm.metric.util.DataPointExpander;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.utils.ObjectReader;

/**
 * The topology's metrics consumers ({@code topology.metrics.consumer.register}) and what feeds them: the IMetrics
 * tasks register, read bucket by bucket, and the v2 registry's task metrics when Storm's v2 tick is on. Collection
 * runs on the executor thread that runs the tasks (the timer posts it there), so user metrics are read by the thread
 * that writes them. Also the v2 side: Storm's built-in task metrics ({@link BuiltinTaskMetrics}, brought up to the
 * tasks' counters every {@value #BUILTIN_UPDATE_MS} ms and before each v2 collection, while anything can see them)
 * and the metrics v2 reporters of {@code topology.metrics.reporters}, which Storm's registry starts and stops.
 *
 * <p>Threading: {@link #start} and {@link #cleanup} under the lifecycle's lock; the collections on executor threads;
 * built-in updates on the timer thread or an executor thread; {@link MetricsConsumers} hands the data points to each
 * consumer task's own thread.
 */
final class MetricsWiring {
    private final TopologyPlan plan;
    private final ClassLoader loader;
    private final WorkerResources resources;
    private final Supervisor supervisor;
    private final MetricsConsumers consumers;
    /** How often the built-in metrics are brought up to date: Storm updates its rate counters every 2 s. */
    static final long BUILTIN_UPDATE_MS = 2000;
    private final Map<Integer, BuiltinTaskMetrics> builtins = new ConcurrentHashMap<>();
    private final Map<Integer, TaskRunner> liveTasks = new ConcurrentHashMap<>();
    private boolean reportersStarted;

    MetricsWiring(TopologyPlan plan, ClassLoader loader, WorkerResources resources, Supervisor supervisor) {
        this.plan = plan;
        this.loader = loader;
        this.resources = resources;
        this.supervisor = supervisor;
        this.consumers = new MetricsConsumers(supervisor::reportError, "microburst-" + plan.name() + "-", loader);
    }

    /** True when no consumer is registered: nothing needs collecting. */
    boolean isEmpty() {
        return consumers.isEmpty();
    }

    /** Whether v2 metrics are collected for the consumers, and every how many seconds. */
    int v2IntervalSecs() {
        if (consumers.isEmpty()
            || !ObjectReader.getBoolean(plan.conf().get(Config.TOPOLOGY_ENABLE_V2_METRICS_TICK),
            false)) {
            return -1;
        }
        return ObjectReader.getInt(
            plan.conf().get(Config.TOPOLOGY_V2_METRICS_TICK_INTERVAL_SECONDS), 60);
    }

    /** True when reporters are configured or consumers take v2 metrics: the built-in metrics are then kept. */
    boolean builtinsObserved() {
        return reportersStarted || v2IntervalSecs() >= 0;
    }

    /** Brings the built-in metrics of the tasks {@code e} runs up to their counters. Any thread. */
    void updateBuiltins(Executor e) {
        for (TaskRunner t : e.tasks()) {
            builtin(t).update();
        }
    }

    private BuiltinTaskMetrics builtin(TaskRunner t) {
        liveTasks.put(t.taskId(), t);
        Set<Metric> owned = resources.builtinMetrics();
        synchronized (owned) {
            BuiltinTaskMetrics b = builtins.get(t.taskId());
            if (b == null) {
                int taskId = t.taskId();
                b = new BuiltinTaskMetrics(t.stats(), resources.metricRegistry(), plan.stormId(),
                    WorkerResources.WORKER_PORT, t instanceof BoltTask, t.component().firstOfExecutor(taskId), owned,
                    () -> liveTasks.get(taskId).inbox().capacityTuples(),
                    () -> liveTasks.get(taskId).inbox().populationTuples());
                builtins.put(taskId, b);
            }
            b.rebind(t.stats());
            return b;
        }
    }

    @SuppressWarnings("unchecked")
    void start() {
        startReporters();
        Object registrations = plan.conf().get(Config.TOPOLOGY_METRICS_CONSUMER_REGISTER);
        if (!(registrations instanceof List<?> list) || list.isEmpty()) {
            return;
        }
        Map<Integer, String> taskToComponent = new HashMap<>(plan.taskToComponent());
        Map<String, List<Integer>> componentTasks = new HashMap<>(plan.componentToSortedTasks());
        int nextTask = plan.maxTaskId() + 1;
        for (List<Integer> ids : plan.systemComponentTasks().values()) {
            nextTask = Math.max(nextTask, ids.get(ids.size() - 1) + 1);
        }
        Map<String, Integer> occurrences = new HashMap<>();
        List<Object[]> created = new ArrayList<>();
        for (Object r : list) {
            Map<String, Object> registration = (Map<String, Object>) r;
            String className = (String) registration.get(StormCommon.TOPOLOGY_METRICS_CONSUMER_CLASS);
            // named and numbered as Storm names and numbers its metrics consumer components
            int occurrence = occurrences.merge(className, 1, Integer::sum);
            String componentId = Constants.METRICS_COMPONENT_ID_PREFIX + className
                + (occurrence > 1 ? "#" + occurrence : "");
            int parallelism = consumerParallelism(registration, componentId);
            MetricsConsumers.Settings settings = consumerSettings(registration, componentId);
            List<Integer> stormIds = plan.systemComponentTasks().get(componentId);
            List<Integer> taskIds = new ArrayList<>();
            for (int i = 0; i < parallelism; i++) {
                int taskId = stormIds != null && stormIds.size() == parallelism ? stormIds.get(i) : nextTask++;
                taskToComponent.put(taskId, componentId);
                taskIds.add(taskId);
            }
            componentTasks.put(componentId, List.copyOf(taskIds));
            for (int taskId : taskIds) {
                try {
                    Class<?> type = Class.forName(className, true, loader);
                    created.add(new Object[] {componentId, taskId, type.getDeclaredConstructor().newInstance(),
                        registration.get(StormCommon.TOPOLOGY_METRICS_CONSUMER_ARGUMENT), settings});
                } catch (ReflectiveOperationException | ClassCastException e) {
                    throw new IllegalArgumentException("Cannot create metrics consumer '" + className + "': " + e, e);
                }
            }
        }
        for (Object[] c : created) {
            String componentId = (String) c[0];
            int taskId = (Integer) c[1];
            IMetricsConsumer consumer = (IMetricsConsumer) c[2];
            consumer.prepare(plan.conf(), c[3], resources.consumerContext(taskToComponent, componentTasks, taskId),
                error -> supervisor.reportError(componentId, taskId, error));
            consumers.add(componentId, taskId, consumer, (MetricsConsumers.Settings) c[4]);
        }
        consumers.start();
    }

    /**
     * A registration's queue bound, name filter and Map expansion, read from its keys as Storm reads them; a bad
     * value is refused naming the consumer component and the key.
     */
    private static MetricsConsumers.Settings consumerSettings(Map<String, Object> registration, String componentId) {
        String key = StormCommon.TOPOLOGY_METRICS_CONSUMER_MAX_RETAIN_METRIC_TUPLES;
        try {
            int maxRetained = ObjectReader.getInt(registration.get(key), 100);
            key = StormCommon.TOPOLOGY_METRICS_CONSUMER_WHITELIST + "/" + StormCommon.TOPOLOGY_METRICS_CONSUMER_BLACKLIST;
            FilterByMetricName filter = new FilterByMetricName(
                patterns(registration, StormCommon.TOPOLOGY_METRICS_CONSUMER_WHITELIST),
                patterns(registration, StormCommon.TOPOLOGY_METRICS_CONSUMER_BLACKLIST));
            key = StormCommon.TOPOLOGY_METRICS_CONSUMER_EXPAND_MAP_TYPE;
            boolean expand = ObjectReader.getBoolean(registration.get(key), false);
            key = StormCommon.TOPOLOGY_METRICS_CONSUMER_METRIC_NAME_SEPARATOR;
            String separator = ObjectReader.getString(registration.get(key), ".");
            return new MetricsConsumers.Settings(maxRetained, filter, new DataPointExpander(expand, separator));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Metrics consumer '" + componentId + "' in "
                + Config.TOPOLOGY_METRICS_CONSUMER_REGISTER + ": bad " + key + ": " + e.getMessage(), e);
        }
    }

    /** A registration's list of metric name regexes under {@code key}, or null when it has none. */
    private static List<String> patterns(Map<String, Object> registration, String key) {
        Object value = registration.get(key);
        if (value == null) {
            return null;
        }
        if (value instanceof List<?> list && list.stream().allMatch(String.class::isInstance)) {
            List<String> patterns = new ArrayList<>();
            list.forEach(p -> patterns.add((String) p));
            return patterns;
        }
        throw new IllegalArgumentException(key + " must be a list of regular expressions, not " + value);
    }

    /** A registration's parallelism hint: its number of consumer tasks, 1 if unset, as Storm reads it. */
    private static int consumerParallelism(Map<String, Object> registration, String componentId) {
        Object hint = registration.get(StormCommon.TOPOLOGY_METRICS_CONSUMER_PARALLELISM_HINT);
        int parallelism;
        try {
            parallelism = ObjectReader.getInt(hint, 1);
        } catch (IllegalArgumentException e) {
            parallelism = 0;
        }
        if (parallelism < 1) {
            throw new IllegalArgumentException("Metrics consumer '" + componentId + "' has parallelism.hint " + hint
                + " in " + Config.TOPOLOGY_METRICS_CONSUMER_REGISTER + "; it must be a whole number of at least 1");
        }
        return parallelism;
    }

    /** Reads the IMetrics of one time bucket registered by the tasks of {@code e}. On e's thread. */
    void collect(Executor e, int bucket) {
        Map<Integer, Map<String, IMetric>> byTask = e.registeredMetrics().get(bucket);
        if (byTask == null) {
            return;
        }
        long now = System.currentTimeMillis() / 1000;
        for (TaskRunner t : e.tasks()) {
            Map<String, IMetric> metrics = byTask.get(t.taskId());
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
                    supervisor.reportError(t, error);
                }
            }
            if (!points.isEmpty()) {
                consumers.deliver(new IMetricsConsumer.TaskInfo(WorkerResources.HOST, WorkerResources.WORKER_PORT,
                    t.componentId(), t.taskId(), now, bucket), points);
            }
        }
    }

    /**
     * Starts the metrics v2 reporters of {@code topology.metrics.reporters} as a Storm worker does: the registry
     * starts them (and its rate counter timer) before any task registers a metric, and stops them in
     * {@link #cleanup}.
     */
    private void startReporters() {
        Object reporters = plan.conf().get(Config.TOPOLOGY_METRICS_REPORTERS);
        if (!(reporters instanceof List<?> list) || list.isEmpty()) {
            return;
        }
        Map<String, Object> conf = new HashMap<>(plan.conf());
        conf.put(Config.STORM_ID, plan.stormId());
        StormMetricRegistry registry = resources.metricRegistry();
        try {
            registry.start(conf, WorkerResources.WORKER_PORT);
        } catch (RuntimeException | LinkageError e) {
            try {
                registry.stop();
            } catch (RuntimeException stopError) {
                e.addSuppressed(stopError);
            }
            throw new IllegalArgumentException("Topology '" + plan.name() + "': cannot start the metrics reporters of "
                + Config.TOPOLOGY_METRICS_REPORTERS + " " + reporters + ": " + e, e);
        }
        reportersStarted = true;
    }

    /** Reads the v2 registry's metrics of the tasks of {@code e}. On e's thread. */
    void collectV2(Executor e, int interval) {
        StormMetricRegistry registry = resources.metricRegistry();
        long now = System.currentTimeMillis() / 1000;
        updateBuiltins(e);
        for (TaskRunner t : e.tasks()) {
            List<IMetricsConsumer.DataPoint> points = V2DataPoints.of(registry, t.taskId());
            if (!points.isEmpty()) {
                consumers.deliver(new IMetricsConsumer.TaskInfo(WorkerResources.HOST, WorkerResources.WORKER_PORT,
                    t.componentId(), t.taskId(), now, interval), points);
            }
        }
    }

    void cleanup() {
        consumers.stop(ObjectReader.getInt(plan.conf().get(ConfigKeys.EXECUTOR_STOP_TIMEOUT_MS), 10_000));
        if (reportersStarted) {
            reportersStarted = false;
            resources.metricRegistry().stop();
        }
    }
}
