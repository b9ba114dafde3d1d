package io.microburst.runtime.task;

import io.microburst.metrics.TaskStats;

/**
 * Storm's skipped-time metrics of a spout ({@code __skipped-inactive-ms}, {@code __skipped-backpressure-ms},
 * {@code __skipped-max-spout-ms}): time its executor idled because the spout could not be polled, by the reason it
 * could not. Time waiting while the spout had nothing to emit is not counted. The spout's executor thread, on idle
 * turns only.
 */
final class SkippedTime {
    private SkippedTime() {
    }

    /**
     * @param inactive the topology is deactivated
     * @param heldBack the topology's spouts wait for full queues to drain
     * @param atMaxPending the spout's pending trees are at max spout pending
     */
    static void count(TaskStats stats, long nanos, boolean inactive, boolean heldBack, boolean atMaxPending) {
        if (inactive) {
            stats.skipped(TaskStats.SKIPPED_INACTIVE, nanos);
        } else if (heldBack) {
            stats.skipped(TaskStats.SKIPPED_BACKPRESSURE, nanos);
        } else if (atMaxPending) {
            stats.skipped(TaskStats.SKIPPED_MAX_SPOUT, nanos);
        }
    }
}
