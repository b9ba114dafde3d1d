package io.microburst.runtime.task;

import io.microburst.reliability.TrackedMessageId;

/**
 * The tracked tuples a bolt instance holds: given to execute, and neither acked nor failed when it returned. They fail
 * back to their spouts if the instance dies. A list linked through the tuples themselves, so holding one allocates
 * nothing; most bolts ack within execute, and their tuples are never listed.
 *
 * <p>Threading: the bolt's executor thread only (an ack from a thread of the user's own is posted there first).
 */
final class HeldTuples {
    private final TaskRunner task;
    private RoutedTuple head;

    HeldTuples(TaskRunner task) {
        this.task = task;
    }

    void add(RoutedTuple t) {
        t.hold(head);
        head = t;
    }

    /** Takes a held tuple off the list. */
    void remove(RoutedTuple t) {
        if (head == t) {
            head = t.nextHeld();
        }
        t.unhold();
    }

    /** The instance died: every tuple it held fails back to its spout. */
    void failAll() {
        RoutedTuple t = head;
        head = null;
        while (t != null) {
            RoutedTuple next = t.nextHeld();
            t.unhold();
            TreeLog.crashed(t.getMessageId(), task);
            t = next;
        }
    }

    /**
     * Executor thread, every half message timeout: drops the held tuples whose trees are all done, timed out or
     * completed through acks by other tasks. The bolt may still ack them (a no-op on a finished tree); without this a
     * bolt that never acks would keep every tuple it was given.
     */
    void prune() {
        RoutedTuple t = head;
        while (t != null) {
            RoutedTuple next = t.nextHeld();
            if (((TrackedMessageId) t.getMessageId()).allDone()) {
                remove(t);
            }
            t = next;
        }
    }

    /** Hands every held tuple to {@code action}, changing nothing. */
    void forEach(java.util.function.Consumer<RoutedTuple> action) {
        for (RoutedTuple t = head; t != null; t = t.nextHeld()) {
            action.accept(t);
        }
    }

    /** Tuples held now. */
    int count() {
        int n = 0;
        for (RoutedTuple t = head; t != null; t = t.nextHeld()) {
            n++;
        }
        return n;
    }
}
