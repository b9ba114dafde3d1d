package io.microburst.routing;

import java.util.List;

/**
 * Chooses the consumer tasks of one subscription for one tuple. One instance per producer task and subscription, so
 * implementations are confined to the producer task's thread and may keep unsynchronized state.
 *
 * <p>The returned list is owned by the grouper and may be cached: callers read it and never change or keep it.
 */
public interface Grouper {
    List<Integer> chooseTasks(List<Object> values);

    /**
     * The one task this grouper always chooses, whatever the tuple, when choosing it needs no call at all: then a
     * producer sends straight to it and never calls {@link #chooseTasks}. -1 otherwise, which is the default: a
     * grouper of the user's own is always called.
     */
    default int onlyTask() {
        return -1;
    }

    /**
     * For a grouper that always chooses exactly one task: the task for this tuple, as a number, so the producer reads no
     * list (one load instead of the list, its element and the Integer's value). The grouper's state advances as for
     * {@link #chooseTasks}; the producer then does not call that. -1 means "call chooseTasks", the default.
     */
    default int chooseTask(List<Object> values) {
        return -1;
    }
}
