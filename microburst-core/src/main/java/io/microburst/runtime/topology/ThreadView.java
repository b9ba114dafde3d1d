package io.microburst.runtime.topology;

import java.util.ArrayList;
import java.util.List;
import io.microburst.metrics.TaskStats;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.SpoutTask;
import io.microburst.runtime.task.TaskRunner;

/**
 * A live, read-only view of one executor thread, which Storm's executors cannot show: the tasks fused into it (in the
 * order it runs them), how full its receive queue is, and how long it waited for room in a consumer's full queue
 * (backpressure). Each call reads the current value; nothing here touches the executor's loop.
 *
 * <p>Threading: any thread; values are racy reads of counters the executor's thread writes, each one whole.
 */
public final class ThreadView {
    /** The executor viewed; {@link EmitSampling} sends it commands. */
    final Executor executor;

    ThreadView(Executor executor) {
        this.executor = executor;
    }

    /** The thread's name. */
    public String name() {
        return executor.name();
    }

    /** The statistics of the tasks this thread runs, fused tasks included, in the order it holds them. */
    public List<TaskStats> tasks() {
        List<TaskStats> tasks = new ArrayList<>();
        for (TaskRunner t : executor.tasks()) {
            tasks.add(t.stats());
        }
        return tasks;
    }

    /** Whether the thread runs spouts. */
    public boolean runsSpouts() {
        for (TaskRunner t : executor.tasks()) {
            if (t instanceof SpoutTask) {
                return true;
            }
        }
        return false;
    }

    /** Tuples the receive queue holds when full (counted in full batches). */
    public int queueCapacity() {
        return executor.inbox().capacityTuples();
    }

    /** About how many tuples wait in the receive queue now (batches count as full). */
    public int queuedTuples() {
        return executor.inbox().populationTuples();
    }

    /** Nanoseconds this thread has waited, in total, for room in a consumer's full queue. */
    public long backpressureNanos() {
        return executor.outbox().backpressureNanos();
    }

    /** Whether the thread is still running. */
    public boolean alive() {
        return !executor.isStoppedForGood();
    }
}
