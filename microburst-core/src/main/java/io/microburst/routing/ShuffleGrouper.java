package io.microburst.routing;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Shuffle, local-or-shuffle and none grouping: round robin over the consumer tasks from a random start, which spreads
 * load evenly and, unlike a random draw per tuple, costs one increment. Every task is local in one process, so
 * local-or-shuffle is shuffle.
 *
 * <p>Threading: one instance per producer task and subscription, called by that task's emits, one at a time.
 */
public final class ShuffleGrouper implements Grouper {
    private final List<Integer>[] singles;
    private final int[] tasks;
    private int next;

    public ShuffleGrouper(List<Integer> targets) {
        this.singles = TaskLists.singletons(targets);
        this.tasks = targets.stream().mapToInt(Integer::intValue).toArray();
        this.next = ThreadLocalRandom.current().nextInt(targets.size());
    }

    @Override
    public List<Integer> chooseTasks(List<Object> values) {
        int i = next;
        next = i + 1 == singles.length ? 0 : i + 1;
        return singles[i];
    }

    @Override
    public int chooseTask(List<Object> values) {
        int i = next;
        next = i + 1 == tasks.length ? 0 : i + 1;
        return tasks[i];
    }

    @Override
    public int onlyTask() {
        return TaskLists.only(singles);
    }
}
