package io.microburst.routing;

import java.util.Arrays;
import java.util.List;

/**
 * Fields grouping: equal values of the grouping fields always reach the same task. Hashes the selected values in
 * place (no key list is built); arrays hash by content, as Storm's grouping does.
 *
 * <p>Threading: one instance per producer task and subscription, called by that task's emits, one at a time.
 */
public final class FieldsGrouper implements Grouper {
    private final List<Integer>[] singles;
    private final int[] fieldIndexes;
    private final int[] tasks;

    public FieldsGrouper(List<Integer> targets, int[] fieldIndexes) {
        this.singles = TaskLists.singletons(targets);
        this.fieldIndexes = fieldIndexes.clone();
        this.tasks = targets.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public int chooseTask(List<Object> values) {
        int[] t = tasks;
        return t.length == 1 ? t[0] : t[Math.floorMod(hash(values, fieldIndexes), t.length)];
    }

    @Override
    public List<Integer> chooseTasks(List<Object> values) {
        if (singles.length == 1) {
            return singles[0]; // one consumer task: no need to hash
        }
        return singles[Math.floorMod(hash(values, fieldIndexes), singles.length)];
    }

    /** Hash of the selected values, stable across tasks and runs for values with stable hash codes. */
    public static int hash(List<Object> values, int[] fieldIndexes) {
        int h = 1;
        for (int index : fieldIndexes) {
            h = 31 * h + valueHash(values.get(index));
        }
        return h ^ (h >>> 16);
    }

    private static int valueHash(Object v) {
        if (v == null) {
            return 0;
        }
        if (!v.getClass().isArray()) {
            return v.hashCode();
        }
        return Arrays.deepHashCode(new Object[] {v});
    }

    @Override
    public int onlyTask() {
        return TaskLists.only(singles);
    }
}
