package io.microburst.runtime.topology;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import io.microburst.config.ConfigKeys;
import io.microburst.metrics.ErrorLog;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.task.Replacement;
import io.microburst.runtime.task.SpoutTask;
import io.microburst.runtime.task.Switchboard;
import io.microburst.runtime.task.TaskRunner;
import org.apache.storm.utils.ObjectReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The failure policy of one topology, by default Storm's: every error is recorded, and a task whose user code threw is
 * replaced by a fresh instance on its own executor's thread, forever. The first replacement after a failure that
 * followed work (a tuple executed, or emitted by a spout) is immediate; a task that fails again without doing any work
 * since (a crash loop: failing in prepare, or on every tuple) is reported as being in a crash loop and replaced after
 * {@code microburst.task.restart.backoff.ms}, doubled for each further failure in a row, up to
 * {@code microburst.task.restart.backoff.max.ms}. Tuples that reach a task before its replacement wait for it (see
 * {@link Replacement}); only the tuple being executed and the ones the instance held fail. Only when the user sets
 * {@code microburst.task.failure.limit} does a task failing more than that many times within
 * {@code microburst.task.failure.window.secs} halt its topology, with an error naming the task and cause. The engine
 * never calls System.exit.
 *
 * <p>Threading: any thread (executor threads, threads of the user's own, the timer); a task's failures are reported
 * on its executor's thread.
 */
final class Supervisor {
    private static final Logger LOG = LoggerFactory.getLogger(Supervisor.class);
    /** No failure limit: restart forever. */
    static final int NO_LIMIT = -1;
    static final int DEFAULT_MAX_BACKOFF_MS = 10_000;

    private final String topologyName;
    private final SharedTimer timer;
    private final Switchboard board;
    private final Consumer<String> halt;
    private final int failureLimit;
    private final long failureWindowMs;
    private final long restartBackoffMs;
    private final long maxBackoffMs;
    private final ErrorLog errors;
    private final Map<Integer, Deque<Long>> failureTimes = new ConcurrentHashMap<>();
    /** Per task: {work done when it last failed, failures in a row without work since}. */
    private final Map<Integer, long[]> crashLoops = new ConcurrentHashMap<>();

    /**
     * @param halt stops the topology with the reason given; called at most once per failure that crosses the limit
     */
    Supervisor(String topologyName, Map<String, Object> conf, SharedTimer timer, Switchboard board, ErrorLog errors,
        Consumer<String> halt) {
        this.topologyName = topologyName;
        this.timer = timer;
        this.board = board;
        this.halt = halt;
        Object limit = conf.get(ConfigKeys.TASK_FAILURE_LIMIT);
        this.failureLimit = limit == null ? NO_LIMIT : ObjectReader.getInt(limit);
        this.failureWindowMs = 1000L * ObjectReader.getInt(conf.get(ConfigKeys.TASK_FAILURE_WINDOW_SECS), 60);
        this.restartBackoffMs = Math.max(0, ObjectReader.getInt(conf.get(ConfigKeys.TASK_RESTART_BACKOFF_MS), 100));
        this.maxBackoffMs = Math.max(restartBackoffMs,
            ObjectReader.getInt(conf.get(ConfigKeys.TASK_RESTART_BACKOFF_MAX_MS), DEFAULT_MAX_BACKOFF_MS));
        this.errors = errors;
    }

    /**
     * The wait before a replacement after {@code inARow} failures without work in between (1 for the first): none for
     * the first, then {@code base} doubled for each further one, up to {@code max}.
     */
    static long backoff(long base, long max, long inARow) {
        if (inARow <= 1) {
            return 0;
        }
        long shift = Math.min(inARow - 2, 30);
        return Math.min(max, base << shift);
    }

    ErrorLog errors() {
        return errors;
    }

    /**
     * A task's user code threw. The error is reported and the task replaced after a backoff; when the user set a
     * failure limit and the task failed more than that within the window, the topology halts instead.
     */
    void taskFailed(TaskRunner task, Throwable error, String phase) {
        LOG.error("Task {} of component '{}' in topology {} failed in {}", task.taskId(), task.componentId(),
            topologyName, phase, error);
        errors.add(task.componentId(), task.taskId(), error);
        if (board.isHalted()) {
            return;
        }
        if (failureLimit != NO_LIMIT) {
            long now = System.currentTimeMillis();
            int failures;
            Deque<Long> times = failureTimes.computeIfAbsent(task.taskId(), k -> new ArrayDeque<>());
            synchronized (times) {
                times.addLast(now);
                while (!times.isEmpty() && now - times.peekFirst() > failureWindowMs) {
                    times.removeFirst();
                }
                failures = times.size();
            }
            if (failures > failureLimit) {
                halt.accept("task " + task.taskId() + " of component '" + task.componentId() + "' failed " + failures
                    + " times within " + failureWindowMs / 1000 + " s (limit " + failureLimit + "); last error in "
                    + phase + ": " + error);
                return;
            }
        }
        long work = workDone(task);
        long[] loop = crashLoops.computeIfAbsent(task.taskId(), k -> new long[] {-1, 0});
        long inARow;
        synchronized (loop) {
            loop[1] = work == loop[0] ? loop[1] + 1 : 1;
            loop[0] = work;
            inARow = loop[1];
        }
        long delay = backoff(restartBackoffMs, maxBackoffMs, inARow);
        if (inARow > 1) {
            reportCrashLoop(task, inARow, delay);
        }
        long ticket = task.replacement().plan(delay);
        Runnable replace = () -> task.inbox().postForTask(task, () -> task.replacement().replaceIfDue(ticket));
        if (delay == 0) {
            replace.run();
        } else {
            timer.after(delay, replace);
        }
    }

    private void reportCrashLoop(TaskRunner task, long inARow, long delay) {
        String message = "Task " + task.taskId() + " of component '" + task.componentId() + "' in topology "
            + topologyName + " is in a crash loop: it failed " + inARow + " times in a row without doing any work in "
            + "between; backing off for " + delay + " ms before replacing it (its tuples wait meanwhile)";
        LOG.error(message);
        errors.add(task.componentId(), task.taskId(), message);
    }

    /**
     * The work a task did so far: the tuples a bolt executed, or a spout emitted. Read on the task's own thread, where
     * failures are reported.
     */
    private static long workDone(TaskRunner task) {
        long work = task.stats().executedTotal();
        if (task instanceof SpoutTask) {
            for (int s = 0; s < task.stats().outStreamCount(); s++) {
                work += task.stats().emitted(s);
            }
        }
        return work;
    }

    /** An error to record; {@code task} null for one of the runtime's own. */
    void reportError(TaskRunner task, Throwable error) {
        if (task == null) {
            errors.add("__system", -1, error);
        } else {
            LOG.warn("Task {} of component '{}' reported an error", task.taskId(), task.componentId(), error);
            errors.add(task.componentId(), task.taskId(), error);
        }
    }

    /**
     * An error of a component that is not a task (a metrics consumer). Logged, as Storm's metrics consumer bolt logs
     * what its consumer throws: the consumer runs on, so the log is where its failure shows.
     */
    void reportError(String componentId, int taskId, Throwable error) {
        LOG.warn("Metrics consumer '{}' (task {}) failed", componentId, taskId, error);
        errors.add(componentId, taskId, error);
    }
}
