package io.microburst.metrics;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.metric.api.IMetricsConsumer;
import org.apache.storm.metric.filter.FilterByMetricName;
import org.apache.storm.metric.util.DataPointExpander;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topology's metrics consumers (topology.metrics.consumer.register): one component per registration, with as many
 * tasks as its parallelism hint, each its own consumer instance, as Storm runs them. Each batch of data points goes to
 * every component, to one of its tasks, round-robin from a random start, as Storm's shuffle grouping spreads a
 * component's metrics tuples over the consumer's tasks.
 *
 * <p>Each consumer task has its own daemon thread and queue, as Storm's metrics consumer bolt has: the task that
 * produced the data points only enqueues them, so a slow consumer never slows a spout or bolt. The queue holds at most
 * the registration's {@code max.retain.metric.tuples} batches (100 unless set; 0 or less: no bound), dropping the
 * oldest when full. On its thread a batch has Map values expanded (storm-client's {@link DataPointExpander}, from
 * {@code expandMapType} and {@code metricNameSeparator}), then is filtered by name (its {@link FilterByMetricName},
 * from {@code whitelist} or {@code blacklist}), then handed to the consumer, even when nothing is left, as Storm does.
 * What the consumer throws is reported and the thread goes on. Once stopped, the thread delivers nothing more and
 * calls the consumer's {@code cleanup} itself, so a consumer is only ever called by one thread at a time.
 *
 * <p>Threading: {@link #add}, {@link #start} and {@link #stop} under the topology's lifecycle lock; {@link #deliver}
 * from any thread.
 */
public final class MetricsConsumers {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsConsumers.class);

    /** How a registration's consumer tasks treat the batches they receive. */
    public record Settings(int maxRetainedBatches, FilterByMetricName filter, DataPointExpander expander) {
    }

    /** One batch as a producing task handed it over. */
    private record Batch(IMetricsConsumer.TaskInfo info, Collection<IMetricsConsumer.DataPoint> points) {
    }

    /** One consumer task: its queue, its thread, and the loop that thread runs. */
    private final class Task implements Runnable {
        final String componentId;
        final int taskId;
        final IMetricsConsumer consumer;
        final Settings settings;
        final BlockingQueue<Batch> queue;
        final Thread thread;
        volatile boolean stopped;

        Task(String componentId, int taskId, IMetricsConsumer consumer, Settings settings) {
            this.componentId = componentId;
            this.taskId = taskId;
            this.consumer = consumer;
            this.settings = settings;
            this.queue = settings.maxRetainedBatches() > 0 ? new ArrayBlockingQueue<>(settings.maxRetainedBatches())
                : new LinkedBlockingQueue<>();
            this.thread = new Thread(this, threadNamePrefix + componentId + "-task-" + taskId);
            thread.setDaemon(true);
            thread.setContextClassLoader(loader);
        }

        /** Never blocks: a full queue loses its oldest batch. */
        void offer(Batch batch) {
            while (!queue.offer(batch)) {
                queue.poll();
            }
        }

        @Override
        public void run() {
            try {
                while (!stopped) {
                    Batch batch;
                    try {
                        batch = queue.take();
                    } catch (InterruptedException e) {
                        continue;
                    }
                    if (stopped) {
                        break;
                    }
                    handle(batch);
                }
            } finally {
                Thread.interrupted();
                cleanupConsumer();
            }
        }

        private void handle(Batch batch) {
            try {
                Collection<IMetricsConsumer.DataPoint> expanded = settings.expander().expandDataPoints(batch.points());
                List<IMetricsConsumer.DataPoint> kept = new ArrayList<>(expanded.size());
                for (IMetricsConsumer.DataPoint p : expanded) {
                    if (settings.filter().apply(p)) {
                        kept.add(p);
                    }
                }
                consumer.handleDataPoints(batch.info(), kept);
            } catch (Throwable error) {
                errors.report(componentId, taskId, error);
            }
        }

        void cleanupConsumer() {
            try {
                consumer.cleanup();
            } catch (Throwable error) {
                LOG.warn("Metrics consumer {} task {} failed in cleanup", componentId, taskId, error);
            }
        }
    }

    /** One registration's tasks and where its round-robin is. */
    private static final class Component {
        final List<Task> tasks = new ArrayList<>();
        final AtomicInteger next = new AtomicInteger(ThreadLocalRandom.current().nextInt());

        Task nextTask() {
            return tasks.get(Math.floorMod(next.getAndIncrement(), tasks.size()));
        }
    }

    /** Where a consumer's failures go. */
    @FunctionalInterface
    public interface Errors {
        void report(String componentId, int taskId, Throwable error);
    }

    private final Map<String, Component> components = new LinkedHashMap<>();
    private Component[] byRegistration = new Component[0];
    private final Errors errors;
    private final String threadNamePrefix;
    private final ClassLoader loader;
    private boolean started;

    /**
     * @param errors where a consumer's failures are reported
     * @param threadNamePrefix the start of each consumer thread's name, followed by its component and task
     * @param loader the consumer threads' context class loader
     */
    public MetricsConsumers(Errors errors, String threadNamePrefix, ClassLoader loader) {
        this.errors = errors;
        this.threadNamePrefix = threadNamePrefix;
        this.loader = loader;
    }

    /** Adds a prepared task of the consumer component {@code componentId}; before {@link #start}. */
    public void add(String componentId, int taskId, IMetricsConsumer consumer, Settings settings) {
        components.computeIfAbsent(componentId, k -> new Component()).tasks
            .add(new Task(componentId, taskId, consumer, settings));
        byRegistration = components.values().toArray(new Component[0]);
    }

    public boolean isEmpty() {
        return components.isEmpty();
    }

    /** Starts every consumer task's thread. */
    public void start() {
        started = true;
        for (Component c : byRegistration) {
            for (Task t : c.tasks) {
                t.thread.start();
            }
        }
    }

    /** Hands the batch to one task of each consumer component; never blocks. Any thread. */
    public void deliver(IMetricsConsumer.TaskInfo info, Collection<IMetricsConsumer.DataPoint> points) {
        for (Component c : byRegistration) {
            c.nextTask().offer(new Batch(info, points));
        }
    }

    /**
     * Stops the consumer threads: none starts another call, a call under way is interrupted, and each thread cleans
     * its consumer up once its call is over. Waits for them up to {@code waitMs}; a thread still inside its consumer
     * then is named in a warning and cleans up when the call returns.
     */
    public void stop(long waitMs) {
        for (Component c : byRegistration) {
            for (Task t : c.tasks) {
                t.stopped = true;
                t.thread.interrupt();
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        for (Component c : byRegistration) {
            for (Task t : c.tasks) {
                if (!started) {
                    t.cleanupConsumer();
                    continue;
                }
                try {
                    t.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (t.thread.isAlive()) {
                    LOG.warn("Metrics consumer {} task {} is still inside the consumer {} ms after the stop; its cleanup"
                        + " runs when that call returns", t.componentId, t.taskId, waitMs);
                }
            }
        }
    }
}
