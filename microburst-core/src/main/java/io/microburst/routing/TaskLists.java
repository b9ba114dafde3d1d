package io.microburst.routing;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Cached one-element task lists, so that routing a tuple to one task allocates nothing. Every producer task of a
 * subscription asks for the same targets: they share one array of lists, so that a shuffle from P tasks into C tasks
 * holds C lists, not P times C.
 *
 * <p>Threading: immutable lists, built once; any thread.
 */
final class TaskLists {
    /** By target list (equal content, weakly held): its singletons. The arrays never change once built. */
    private static final Map<List<Integer>, List<Integer>[]> SHARED = Collections.synchronizedMap(new WeakHashMap<>());

    private TaskLists() {
    }

    static List<Integer>[] singletons(List<Integer> targets) {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("a grouping needs at least one target task");
        }
        return SHARED.computeIfAbsent(targets, TaskLists::build);
    }

    @SuppressWarnings("unchecked")
    private static List<Integer>[] build(List<Integer> targets) {
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
