package io.microburst.runtime.topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.microburst.metrics.StatsHistory;
import io.microburst.metrics.TaskStats;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.SpoutTask;
import io.microburst.runtime.task.TaskRunner;

/**
 * Read-only views of a topology's statistics: per executor as Storm counts them (one component's range of tasks;
 * fused, sliced and shared executors share a thread but are separate executors here), and the history that Storm's time windows are
 * computed from. Counters are written by task threads and only read here.
 *
 * <p>Threading: any thread.
 */
final class StatsViews {
    private final StatsHistory history = new StatsHistory();

    /** A view of each executor for statistics: its name, task range and the stats of its tasks. */
    static List<ExecutorView> of(Executor[] executors) {
        List<ExecutorView> views = new ArrayList<>();
        for (Executor e : executors) {
            // by Storm executor: a shared thread runs several executors of one component
            Map<List<Object>, List<TaskRunner>> byComponent = new LinkedHashMap<>();
            for (TaskRunner t : e.tasks()) {
                byComponent.computeIfAbsent(List.of(t.componentId(), t.component().executorOf(t.taskId())),
                    k -> new ArrayList<>()).add(t);
            }
            for (List<TaskRunner> tasks : byComponent.values()) {
                List<TaskStats> stats = new ArrayList<>();
                for (TaskRunner t : tasks) {
                    stats.add(t.stats());
                }
                TaskRunner first = tasks.get(0);
                TaskRunner last = tasks.get(tasks.size() - 1);
                views.add(new ExecutorView(first.componentId(), first.taskId(), last.taskId(), first instanceof SpoutTask,
                    stats, e.name()));
            }
        }
        return views;
    }

    /**
     * A live view of each executor thread: its fused tasks, queue fill and backpressure. An executor that runs no task
     * (its tasks moved back, see {@link CutReturn}) has no thread left to show.
     */
    static List<ThreadView> threads(Executor[] executors) {
        List<ThreadView> views = new ArrayList<>();
        for (Executor e : executors) {
            if (e.tasks().length > 0) {
                views.add(new ThreadView(e));
            }
        }
        return views;
    }

    /** Records the counters of every task now (the timer calls it every {@link StatsHistory#RECORD_EVERY_MS}). */
    void record(Executor[] executors) {
        List<TaskStats> all = new ArrayList<>();
        for (ExecutorView v : of(executors)) {
            all.addAll(v.tasks());
        }
        history.record(System.currentTimeMillis(), all);
    }

    StatsHistory history() {
        return history;
    }

    /** How many of {@code all} have a thread that has not ended for good. */
    static int live(Executor[] all) {
        int n = 0;
        for (Executor e : all) {
            if (!e.isStoppedForGood()) {
                n++;
            }
        }
        return n;
    }
}
