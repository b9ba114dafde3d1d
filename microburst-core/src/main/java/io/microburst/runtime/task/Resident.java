package io.microburst.runtime.task;

/**
 * What an {@link Inbox} needs from a task it runs actions for: the inbox of the executor that runs the task now, which
 * changes when the task moves to an executor of its own. Any thread may ask; the answer may be stale by the time it is
 * used, so an action that finds the task gone sends itself on (see {@link Inbox#postForTask}).
 */
interface Resident {
    /** The inbox of the executor running this task now. Any thread. */
    Inbox inbox();
}
