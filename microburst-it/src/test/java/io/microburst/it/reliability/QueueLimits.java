package io.microburst.it.reliability;

import io.microburst.MicroburstConfig;
import org.apache.storm.Config;

/**
 * Small, explicit queue sizes for backpressure tests, set for both runtimes (with fusion off, so every edge is a
 * queue), and the most tuples that may sit
 * between one producer and one consumer: the receive queue plus one producer batch, twice over for the tuple
 * being executed and hand-over slack. A runtime that overflows into an unbounded buffer exceeds it many times.
 */
final class QueueLimits {
    final int queueSize;
    final int batchSize;

    QueueLimits(int queueSize, int batchSize) {
        this.queueSize = queueSize;
        this.batchSize = batchSize;
    }

    void applyTo(Config conf) {
        // Fusion would turn a one-to-one edge into a method call, leaving no queue to bound.
        conf.put(MicroburstConfig.FUSION, false);
        conf.put(MicroburstConfig.EXECUTOR_QUEUE_SIZE, queueSize);
        conf.put(MicroburstConfig.PRODUCER_BATCH_SIZE, batchSize);
        conf.put(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, queueSize);
        conf.put(Config.TOPOLOGY_PRODUCER_BATCH_SIZE, batchSize);
    }

    long tuplesBetweenOneProducerAndConsumer() {
        return 2L * (queueSize + batchSize);
    }

    @Override
    public String toString() {
        return "queue " + queueSize + ", batch " + batchSize;
    }
}
