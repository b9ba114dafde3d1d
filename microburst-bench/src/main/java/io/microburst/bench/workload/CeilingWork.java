package io.microburst.bench.workload;

/**
 * A workload's work written by hand, without a stream runtime: the spout's part and the bolts' part.
 *
 * <p>Threading: {@link #produce()} is only ever called from one thread and {@link #consume(Object)} only from one thread;
 * in the SPSC ceiling they are two different threads joined by a queue, so an implementation keeps producer state and
 * consumer state apart and shares nothing mutable between them.
 */
public interface CeilingWork {
    /** The spout's work: the next item, or {@code null} when nothing is due now (a paced source). Producer thread only. */
    Object produce();

    /** The bolts' work for one item; returns how many tuples reached the last component. Consumer thread only. */
    int consume(Object item);
}
