package io.microburst.routing;

import java.util.List;

/**
 * A grouping whose answer never depends on the tuple: all grouping (every task) and global grouping (lowest task id).
 *
 * <p>Threading: immutable; any thread.
 */
public final class FixedGrouper implements Grouper {
    private final List<Integer> targets;

    private FixedGrouper(List<Integer> targets) {
        this.targets = targets;
    }

    public static FixedGrouper all(List<Integer> targets) {
        return new FixedGrouper(List.copyOf(targets));
    }

    public static FixedGrouper global(List<Integer> targets) {
        int lowest = Integer.MAX_VALUE;
        for (int t : targets) {
            lowest = Math.min(lowest, t);
        }
        return new FixedGrouper(List.of(lowest));
    }

    @Override
    public List<Integer> chooseTasks(List<Object> values) {
        return targets;
    }

    @Override
    public int onlyTask() {
        return targets.size() == 1 ? targets.get(0) : -1;
    }
}
