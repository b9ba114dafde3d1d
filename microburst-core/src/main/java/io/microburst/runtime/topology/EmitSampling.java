package io.microburst.runtime.topology;

import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.EmitSampler;
import io.microburst.runtime.task.TaskRunner;
import java.util.List;

/**
 * Turns Storm's debug event sampling on or off for a running topology's tasks (all, or one component's), given the
 * topology's threads ({@code MicroburstCluster.getThreadViews}): each executor is sent a command that sets an
 * {@link EmitSampler} on its tasks, run on its own thread. Any thread.
 */
public final class EmitSampling {
    private EmitSampling() {
    }

    /** @param pct the percentage of emits sampled; 0 stops sampling */
    public static void apply(List<ThreadView> threads, String component, double pct, EmitSampler.Sink sink) {
        for (ThreadView thread : threads) {
            Executor executor = thread.executor;
            executor.post(() -> {
                for (TaskRunner task : executor.tasks()) {
                    if (component == null || component.equals(task.componentId())) {
                        EmitSampler.apply(task, pct > 0 ? new EmitSampler(task.componentId(), pct, sink) : null);
                    }
                }
            });
        }
    }
}
