package io.microburst.runtime.executor;

import io.microburst.runtime.task.TaskRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A turn of an executor's loop threw outside the guards around user code (a bug of ours, or an Error thrown where no
 * guard is). The thread must not end while the topology runs: the tasks of the executor fail as if their user code had
 * thrown (the failure policy restarts them, or halts the topology when the user asked for that), and the loop goes on.
 * The executor's own thread.
 */
final class LoopFailure {
    private static final Logger LOG = LoggerFactory.getLogger(Executor.class);

    private LoopFailure() {
    }

    static void failTasks(String executor, TaskRunner[] tasks, ExecutorHost host, Throwable error) {
        LOG.error("Executor {}: unexpected error in its loop; its tasks are failed and restarted", executor, error);
        boolean anyUp = false;
        for (TaskRunner task : tasks) {
            if (task.isUp()) {
                anyUp = true;
                task.failed(error, "executor loop");
            }
        }
        if (!anyUp) {
            host.reportError(tasks.length > 0 ? tasks[0] : null, error);
        }
    }
}
