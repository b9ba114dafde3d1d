package io.microburst.metrics;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.storm.metric.api.IMetricsConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topology's metrics consumers (topology.metrics.consumer.register). Data points are handed over on the thread of
 * the task that produced them, one call at a time per consumer, so a consumer sees its methods called from one
 * thread at a time as Storm promises, without a thread of its own.
 *
 * <p>Threading: registered under the topology's lifecycle lock; data points delivered from executor threads, one call
 * at a time per consumer.
 */
public final class MetricsConsumers {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsConsumers.class);

    private record Registered(String componentId, int taskId, IMetricsConsumer consumer) {
    }

    /** Where a consumer's failures go. */
    @FunctionalInterface
    public interface Errors {
        void report(String componentId, int taskId, Throwable error);
    }

    private final List<Registered> consumers = new ArrayList<>();
    private final Errors errors;

    /** @param errors where a consumer's failures are reported */
    public MetricsConsumers(Errors errors) {
        this.errors = errors;
    }

    public void add(String componentId, int taskId, IMetricsConsumer consumer) {
        consumers.add(new Registered(componentId, taskId, consumer));
    }

    public boolean isEmpty() {
        return consumers.isEmpty();
    }

    public void deliver(IMetricsConsumer.TaskInfo info, Collection<IMetricsConsumer.DataPoint> points) {
        for (Registered r : consumers) {
            synchronized (r) {
                try {
                    r.consumer.handleDataPoints(info, points);
                } catch (Throwable t) {
                    errors.report(r.componentId, r.taskId, t);
                }
            }
        }
    }

    public void cleanup() {
        for (Registered r : consumers) {
            synchronized (r) {
                try {
                    r.consumer.cleanup();
                } catch (Throwable t) {
                    LOG.warn("Metrics consumer {} failed in cleanup", r.componentId, t);
                }
            }
        }
    }
}
