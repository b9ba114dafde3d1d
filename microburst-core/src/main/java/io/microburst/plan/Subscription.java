package io.microburst.plan;

import org.apache.storm.generated.Grouping;

/**
 * A consumer's subscription to one producer stream, with the grouping it asked for.
 *
 * @param stream the producer's stream
 * @param consumer the subscribing component
 * @param grouping the grouping as declared in the topology
 * @param inputIndex position of this subscription among the consumer's inputs (sorted by component, then stream)
 *
 * <p>Threading: immutable; any thread.
 */
public record Subscription(StreamPlan stream, ComponentPlan consumer, Grouping grouping, int inputIndex) {
}
