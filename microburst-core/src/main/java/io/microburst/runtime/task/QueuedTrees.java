package io.microburst.runtime.task;

import io.microburst.reliability.TrackedMessageId;

/**
 * Stamps the trees of tracked tuples that wait in an executor's queues, so that time spent waiting behind a slow
 * consumer never times a tree out (STORM-2359). The executor's own thread, every half message timeout; a queue other
 * threads fill is read with JCTools' weakly consistent iterator.
 */
final class QueuedTrees {
    private QueuedTrees() {
    }

    /**
     * @param current the batch being executed, or null
     * @param position the index of its next tuple
     */
    static void touch(Iterable<Batch> batches, Batch current, int position, Iterable<RoutedTuple> foreign,
                      Iterable<RoutedTuple> local, long now) {
        for (Batch b : batches) {
            b.touch(0, now);
        }
        if (current != null) {
            current.touch(position, now);
        }
        for (RoutedTuple t : foreign) {
            touch(t, now);
        }
        for (RoutedTuple t : local) {
            touch(t, now);
        }
    }

    private static void touch(RoutedTuple t, long now) {
        if (t != null && t.getMessageId() instanceof TrackedMessageId id) {
            id.touch(now);
        }
    }
}
