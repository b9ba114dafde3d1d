package io.microburst.metrics;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.metric.api.IMetricsConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topology's metrics consumers (topology.metrics.consumer.register): one component per registration, with as many
 * tasks as its parallelism hint, each its own consumer instance, as Storm runs them. Each batch of data points goes to
 * every component, to one of its tasks, round-robin from a random start, as Storm's shuffle grouping spreads a
 * component's metrics tuples over the consumer's tasks. Data points are handed over on the thread of the task that
 * produced them, one call at a time per consumer task, so a consumer sees its methods called from one thread at a
 * time as Storm promises, without a thread of its own.
 *
 * <p>Threading: registered under the topology's lifecycle lock; data points delivered from executor threads, one call
 * at a time per consumer task.
 */
public final class MetricsConsumers {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsConsumers.class);

    private record Task(String componentId, int taskId, IMetricsConsumer consumer) {
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

    /** @param errors where a consumer's failures are reported */
    public MetricsConsumers(Errors errors) {
        this.errors = errors;
    }

    /** Adds a task of the consumer component {@code componentId}; before any delivery. */
    public void add(String componentId, int taskId, IMetricsConsumer consumer) {
        components.computeIfAbsent(componentId, k -> new Component()).tasks.add(new Task(componentId, taskId, consumer));
        byRegistration = components.values().toArray(new Component[0]);
    }

    public boolean isEmpty() {
        return components.isEmpty();
    }

    public void deliver(IMetricsConsumer.TaskInfo info, Collection<IMetricsConsumer.DataPoint> points) {
        for (Component c : byRegistration) {
            Task t = c.nextTask();
            synchronized (t) {
                try {
                    t.consumer.handleDataPoints(info, points);
                } catch (Throwable error) {
                    errors.report(t.componentId, t.taskId, error);
                }
            }
        }
    }

    public void cleanup() {
        for (Component c : byRegistration) {
            for (Task t : c.tasks) {
                synchronized (t) {
                    try {
                        t.consumer.cleanup();
                    } catch (Throwable error) {
                        LOG.warn("Metrics consumer {} task {} failed in cleanup", t.componentId, t.taskId, error);
                    }
                }
            }
        }
    }
}
