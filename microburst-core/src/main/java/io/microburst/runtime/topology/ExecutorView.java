package io.microburst.runtime.topology;

import java.util.Collection;
import io.microburst.metrics.TaskStats;

/**
 * Statistics of one executor as Storm counts executors: one component's tasks on one thread.
 *
 * @param thread the name of the thread running these tasks (shared by fused components)
 *
 * <p>Threading: an immutable view; the counters it holds are written by task threads and read by any thread.
 */
public record ExecutorView(String componentId, int firstTask, int lastTask, boolean spout, Collection<TaskStats> tasks,
                           String thread) {
}
