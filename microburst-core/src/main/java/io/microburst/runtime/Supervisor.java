package io.microburst.runtime;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import io.microburst.config.ConfigKeys;
import io.microburst.metrics.ErrorLog;
import org.apache.storm.utils.ObjectReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The failure policy of one topology: every error is recorded; a task whose user code threw is replaced by a fresh
 * instance after a backoff, on its own executor's thread, unless it failed more than the limit within the window, in
 * which case the topology halts with an error naming the task and cause. The engine never calls System.exit.
 *
 * <p>Threading: any thread (executor threads, threads of the user's own, the timer).
 */
final class Supervisor {
    private static final Logger LOG = LoggerFactory.getLogger(Supervisor.class);

    private final String topologyName;
    private final SharedTimer timer;
    private final Switchboard board;
    private final Consumer<String> halt;
    private final int failureLimit;
    private final long failureWindowMs;
    private final long restartBackoffMs;
    private final ErrorLog errors;
    private final Map<Integer, Deque<Long>> failureTimes = new ConcurrentHashMap<>();

    /**
     * @param halt stops the topology with the reason given; called at most once per failure that crosses the limit
     */
    Supervisor(String topologyName, Map<String, Object> conf, SharedTimer timer, Switchboard board, ErrorLog errors,
        Consumer<String> halt) {
        this.topologyName = topologyName;
        this.timer = timer;
        this.board = board;
        this.halt = halt;
        this.failureLimit = ObjectReader.getInt(conf.get(ConfigKeys.TASK_FAILURE_LIMIT), 5);
        this.failureWindowMs = 1000L * ObjectReader.getInt(conf.get(ConfigKeys.TASK_FAILURE_WINDOW_SECS), 60);
        this.restartBackoffMs = ObjectReader.getInt(conf.get(ConfigKeys.TASK_RESTART_BACKOFF_MS), 100);
        this.errors = errors;
    }

    ErrorLog errors() {
        return errors;
    }

    /**
     * A task's user code threw. The error is reported; the task is replaced after a backoff unless it failed more
     * than the limit within the window, in which case the topology stops with an error.
     */
    void taskFailed(TaskRunner task, Throwable error, String phase) {
        LOG.error("Task {} of component '{}' in topology {} failed in {}", task.taskId, task.componentId(),
            topologyName, phase, error);
        errors.add(task.componentId(), task.taskId, error);
        if (board.isHalted()) {
            return;
        }
        long now = System.currentTimeMillis();
        int failures;
        Deque<Long> times = failureTimes.computeIfAbsent(task.taskId, k -> new ArrayDeque<>());
        synchronized (times) {
            times.addLast(now);
            while (!times.isEmpty() && now - times.peekFirst() > failureWindowMs) {
                times.removeFirst();
            }
            failures = times.size();
        }
        if (failures > failureLimit) {
            halt.accept("task " + task.taskId + " of component '" + task.componentId() + "' failed " + failures
                + " times within " + failureWindowMs / 1000 + " s (limit " + failureLimit + "); last error in "
                + phase + ": " + error);
            return;
        }
        timer.after(restartBackoffMs, () -> task.inbox.postForTask(task, () -> {
            if (board.isHalted()) {
                return;
            }
            if (task instanceof SpoutTask s) {
                s.restart();
            } else {
                ((BoltTask) task).restart();
            }
        }));
    }

    /** An error to record; {@code task} null for one of the runtime's own. */
    void reportError(TaskRunner task, Throwable error) {
        if (task == null) {
            errors.add("__system", -1, error);
        } else {
            LOG.warn("Task {} of component '{}' reported an error", task.taskId, task.componentId(), error);
            errors.add(task.componentId(), task.taskId, error);
        }
    }

    /** An error of a component that is not a task (a metrics consumer). */
    void reportError(String componentId, int taskId, Throwable error) {
        errors.add(componentId, taskId, error);
    }
}
