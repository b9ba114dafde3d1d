package io.microburst.runtime.executor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import io.microburst.runtime.task.BoltTask;
import io.microburst.runtime.task.Inbox;
import io.microburst.runtime.task.TaskRunner;

/**
 * Moves the fused tasks of one executor that asked to leave (a slow streak, or a cut the balancer chose), each with the
 * tasks fused after it, to executors of their own. Runs on the executor's own thread, between turns, so no user code
 * is on the stack.
 */
final class Defusion {
    private Defusion() {
    }

    /**
     * Acts on the requests waiting in {@code inbox} and clears them; returns the tasks that stay on {@code from}
     * ({@code tasks} less the ones that moved).
     */
    static TaskRunner[] act(Executor from, Inbox inbox, TaskRunner[] tasks, ExecutorHost host) {
        for (Map.Entry<BoltTask, String> request : inbox.defuseRequests().entrySet()) {
            BoltTask head = request.getKey();
            if (!head.isFused() || head.inbox() != inbox) {
                continue;
            }
            List<TaskRunner> moving = new ArrayList<>();
            moving.add(head);
            for (TaskRunner t : tasks) {
                if (t != head && t instanceof BoltTask b && b.isFused()
                    && host.chainsInto(t.componentId(), head.componentId())) {
                    moving.add(t);
                }
            }
            Executor target = host.defuse(from, moving, request.getValue());
            if (target == null) {
                break;
            }
            head.setFused(false);
            List<TaskRunner> staying = new ArrayList<>(Arrays.asList(tasks));
            staying.removeAll(moving);
            tasks = staying.toArray(new TaskRunner[0]);
        }
        inbox.defuseRequests().clear();
        return tasks;
    }
}
