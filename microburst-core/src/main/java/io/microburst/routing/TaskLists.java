package io.microburst.routing;

import java.util.List;

/**
 * Cached one-element task lists, so that routing a tuple to one task allocates nothing.
 *
 * <p>Threading: immutable lists, built once; any thread.
 */
final class TaskLists {
    private TaskLists() {
    }

    @SuppressWarnings("unchecked")
    static List<Integer>[] singletons(List<Integer> targets) {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("a grouping needs at least one target task");
        }
        List<Integer>[] lists = new List[targets.size()];
        for (int i = 0; i < lists.length; i++) {
            lists[i] = List.of(targets.get(i));
        }
        return lists;
    }

    /** The task of a grouper whose targets are {@code singles} when there is only one, or -1 (see Grouper#onlyTask). */
    static int only(List<Integer>[] singles) {
        return singles.length == 1 ? singles[0].get(0) : -1;
    }
}
