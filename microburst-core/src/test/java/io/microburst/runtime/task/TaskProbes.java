package io.microburst.runtime.task;

/**
 * What the tests of other runtime packages read of the data path's package-private state, without widening its API.
 * Each method says which thread may call it, as the member it reads does.
 */
public final class TaskProbes {
    private TaskProbes() {
    }

    /** Tracked tuples the bolt's instance holds now: an estimate from any other thread. */
    public static int heldCount(BoltTask bolt) {
        return bolt.heldCount();
    }

    /** How many links lead to the task now. Any thread. */
    public static int linkCount(BoltTask bolt) {
        return bolt.linkCount();
    }

    /** How many consumers the outbox has slots for. Any thread, racy. */
    public static int consumerSlots(Outbox outbox) {
        return outbox.consumerSlots();
    }

    /** When the inbox's executor polls its spouts next. Any thread. */
    public static long nextPollNanos(Inbox inbox) {
        return inbox.nextPollNanos();
    }
}
