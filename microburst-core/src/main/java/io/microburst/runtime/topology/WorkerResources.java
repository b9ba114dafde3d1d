package io.microburst.runtime.topology;

import io.microburst.config.ConfigKeys;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import com.codahale.metrics.Metric;
import io.microburst.plan.TopologyPlan;
import io.microburst.plan.UserObjects;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.TaskRunner;
import org.apache.storm.Config;
import org.apache.storm.hooks.IWorkerHook;
import org.apache.storm.metric.api.IMetric;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.task.WorkerTopologyContext;
import org.apache.storm.task.WorkerUserContext;
import org.apache.storm.utils.ObjectReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a Storm worker gives its tasks, for one topology: the working directory, the shared executor pool and the other
 * default and user resources, worker hooks, the v2 metric registry, and the {@link TopologyContext} each task instance
 * gets (with its executor's maps).
 *
 * <p>Threading: contexts are made on task threads; start and shutdown run under the lifecycle's lock. The maps
 * handed to user code are concurrent where Storm's are.
 */
final class WorkerResources {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerResources.class);
    /** The port a one-process "worker" reports; there is no socket behind it. */
    static final int WORKER_PORT = 1024;
    static final String HOST = "localhost";

    private final TopologyPlan plan;
    private final ClassLoader loader;
    private final StormMetricRegistry metricRegistry = new StormMetricRegistry();
    /** The built-in metrics in the registry: they belong to the task, not to an instance of it (its lock as well). */
    private final Set<Metric> builtinMetrics = ConcurrentHashMap.newKeySet();
    private final Map<String, Object> defaultResources = new HashMap<>();
    private final Map<String, Object> userResources = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor sharedPool;
    private final List<Integer> workerTasks;
    private final List<IWorkerHook> workerHooks = new ArrayList<>();
    private final Map<Integer, AtomicBoolean> preparedFlags = new ConcurrentHashMap<>();
    private final WorkDir workDir;

    WorkerResources(TopologyPlan plan, ClassLoader loader) {
        this.plan = plan;
        this.loader = loader;
        int poolSize = ObjectReader.getInt(plan.conf().get(Config.TOPOLOGY_WORKER_SHARED_THREAD_POOL_SIZE), 4);
        this.sharedPool = new ThreadPoolExecutor(poolSize, poolSize, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
            r -> {
                Thread t = new Thread(r, "microburst-" + plan.name() + "-shared");
                t.setDaemon(true);
                t.setContextClassLoader(loader);
                return t;
            });
        sharedPool.allowCoreThreadTimeOut(true);
        defaultResources.put(WorkerTopologyContext.SHARED_EXECUTOR, sharedPool);
        List<Integer> tasks = new ArrayList<>(plan.taskToComponent().keySet());
        Collections.sort(tasks);
        this.workerTasks = List.copyOf(tasks);
        this.workDir = WorkDir.create(plan.name(), loader, 
            ObjectReader.getString(plan.conf().get(ConfigKeys.WORK_DIR), null));
    }

    StormMetricRegistry metricRegistry() {
        return metricRegistry;
    }

    Set<Metric> builtinMetrics() {
        return builtinMetrics;
    }

    void startWorkerHooks() {
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

    /** A context for a metrics consumer: a system task of its own, outside the topology's task ids. */
    TopologyContext consumerContext(Map<Integer, String> taskToComponent, Map<String, List<Integer>> componentTasks,
        int taskId) {
        return new TopologyContext(plan.topology(), plan.conf(), taskToComponent, componentTasks,
            plan.componentToStreamToFields(), new ConcurrentHashMap<>(), plan.stormId(), workDir.codeDir(),
            workDir.pidDir(), taskId,
            WORKER_PORT, workerTasks, defaultResources, userResources, new HashMap<>(), new HashMap<>(),
            new AtomicBoolean(), metricRegistry);
    }

    /**
     * A fresh context for a task's new instance, with the maps of the executor running it; forgets the metrics its
     * previous instance registered.
     */
    TopologyContext newTaskContext(TaskRunner task, Executor executor) {
        for (Map<Integer, Map<String, IMetric>> byTask : executor.registeredMetrics().values()) {
            byTask.remove(task.taskId());
        }
        synchronized (builtinMetrics) {
            Set<Metric> old = new HashSet<>();
            old.addAll(metricRegistry.getTaskCounters(task.taskId()).values());
            old.addAll(metricRegistry.getTaskGauges(task.taskId()).values());
            old.addAll(metricRegistry.getTaskHistograms(task.taskId()).values());
            old.addAll(metricRegistry.getTaskMeters(task.taskId()).values());
            old.addAll(metricRegistry.getTaskTimers(task.taskId()).values());
            old.removeAll(builtinMetrics);
            if (!old.isEmpty()) {
                metricRegistry.deregister(old);
            }
        }
        preparedFlag(task.taskId()).set(false);
        return new TopologyContext(plan.topology(), plan.conf(), plan.taskToComponent(), plan.componentToSortedTasks(),
            plan.componentToStreamToFields(), new ConcurrentHashMap<>(), plan.stormId(), workDir.codeDir(),
            workDir.pidDir(), task.taskId(),
            WORKER_PORT, workerTasks, defaultResources, userResources, executor.executorData(),
            executor.registeredMetrics(), preparedFlag(task.taskId()), metricRegistry);
    }

    AtomicBoolean preparedFlag(int taskId) {
        return preparedFlags.computeIfAbsent(taskId, k -> new AtomicBoolean());
    }

    void shutdownWorkerHooks() {
        for (IWorkerHook hook : workerHooks) {
            try {
                hook.shutdown();
            } catch (Throwable t) {
                LOG.warn("Worker hook {} failed in shutdown", hook, t);
            }
        }
    }

    java.nio.file.Path workingDirectory() {
        return workDir.root();
    }

    /** Stops the shared pool and deletes the working directory. */
    void close() {
        sharedPool.shutdownNow();
        try {
            sharedPool.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        workDir.close();
    }
}
