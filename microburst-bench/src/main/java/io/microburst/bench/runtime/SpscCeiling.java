package io.microburst.bench.runtime;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.probe.TaskCounter;
import io.microburst.bench.workload.CeilingWork;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.SpscArrayQueue;

/**
 * The messaging ceiling: the spout's work on one thread, the bolts' work on another, joined by one JCTools SPSC queue that
 * the consumer drains in batches. Both threads spin, then yield (never park), when there is nothing to do.
 */
final class SpscCeiling implements Deployment {
    /** Queue capacity, in items. */
    static final int CAPACITY = 1 << 14;
    /** Most items the consumer takes per drain before publishing its count. */
    static final int DRAIN_LIMIT = 4096;
    private static final long JOIN_MILLIS = 5_000;

    private final SpscArrayQueue<Object> queue = new SpscArrayQueue<>(CAPACITY);
    private final Thread producer;
    private final Thread consumer;
    private volatile boolean running = true;

    private SpscCeiling(CeilingWork work) {
        producer = new Thread(() -> produce(work), "ceiling-spsc-producer");
        consumer = new Thread(() -> consume(work), "ceiling-spsc-consumer");
        producer.setDaemon(true);
        consumer.setDaemon(true);
    }

    static SpscCeiling start(CeilingWork work) {
        SpscCeiling ceiling = new SpscCeiling(work);
        ceiling.consumer.start();
        ceiling.producer.start();
        return ceiling;
    }

    private void produce(CeilingWork work) {
        SpinThenYield idle = new SpinThenYield();
        while (running) {
            Object item = work.produce();
            if (item == null) {
                idle.idle();
                continue;
            }
            idle.reset();
            while (!queue.relaxedOffer(item)) {
                if (!running) {
                    return;
                }
                Thread.onSpinWait();
            }
        }
    }

    private void consume(CeilingWork work) {
        TaskCounter delivered = Probes.newTaskCounter();
        BatchSink sink = new BatchSink(work);
        SpinThenYield idle = new SpinThenYield();
        while (running) {
            int drained = queue.drain(sink, DRAIN_LIMIT);
            if (drained == 0) {
                idle.idle();
                continue;
            }
            idle.reset();
            if (sink.delivered > 0) {
                delivered.add(sink.delivered);
                sink.delivered = 0;
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        producer.join(JOIN_MILLIS);
        consumer.join(JOIN_MILLIS);
    }

    /** Runs the bolts' work on each drained item and sums what reached the last component. Consumer thread only. */
    private static final class BatchSink implements MessagePassingQueue.Consumer<Object> {
        private final CeilingWork work;
        long delivered;

        BatchSink(CeilingWork work) {
            this.work = work;
        }

        @Override
        public void accept(Object item) {
            delivered += work.consume(item);
        }
    }
}
