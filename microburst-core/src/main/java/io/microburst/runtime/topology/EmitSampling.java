package io.microburst.runtime.topology;

import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.EmitSampler;
import io.microburst.runtime.task.EventSampling;
import io.microburst.runtime.task.TaskRunner;
import java.util.List;

/**
 * Applies a topology's debug event sampling ({@link EventSampling}, as just set) to its running tasks, given the
 * topology's threads ({@code MicroburstCluster.getThreadViews}): each executor is sent a command that gives each of its
 * tasks the {@link EmitSampler} its component samples with now, run on its own thread. Tasks started later (after a
 * failure, a rebalance) take theirs from the same {@link EventSampling}. Any thread.
 */
public final class EmitSampling {
    private EmitSampling() {
    }

    public static void apply(List<ThreadView> threads, EventSampling sampling) {
        for (ThreadView thread : threads) {
            Executor executor = thread.executor;
            executor.post(() -> {
                for (TaskRunner task : executor.tasks()) {
                    EmitSampler.apply(task, sampling.samplerFor(task.componentId()));
                }
            });
        }
    }
}
