package io.microburst.it.reliability;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The spout-side ledger of one spout task: which of its message ids are pending, and whether the runtime keeps its
 * promise that ack and fail run on the task's own thread and never concurrently with nextTuple.
 * Violations are recorded, not thrown, so that the test sees them all.
 */
final class SpoutBookkeeping {
    private final RunRecord run;
    private final String task;
    private final Set<Long> pending = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean inNextTuple = new AtomicBoolean();
    private volatile Thread spoutThread;
    private volatile boolean deactivated;

    SpoutBookkeeping(RunRecord run, String task) {
        this.run = run;
        this.task = task;
    }

    void enterNextTuple() {
        spoutThread = Thread.currentThread();
        if (!inNextTuple.compareAndSet(false, true)) {
            run.violation(task + ": nextTuple entered while already running");
        }
        if (deactivated) {
            run.violation(task + ": nextTuple called after deactivate()");
        }
    }

    void exitNextTuple() {
        inNextTuple.set(false);
    }

    /** Call before collector.emit: with no ackers Storm acks inside emit. */
    void emitting(long msgId, boolean tracked) {
        run.recordEmit(msgId);
        if (tracked) {
            pending.add(msgId);
            run.observeInFlight(pending.size());
        }
    }

    void acked(Object msgId) {
        long id = settle("ack", msgId);
        run.recordAck(id);
    }

    void failed(Object msgId) {
        long id = settle("fail", msgId);
        run.recordFail(id);
    }

    void activated() {
        deactivated = false;
    }

    void deactivated() {
        deactivated = true;
        run.increment("deactivate");
    }

    void closed() {
        run.increment("close");
        run.add("pending at close", pending.size());
    }

    int pendingCount() {
        return pending.size();
    }

    private long settle(String what, Object msgId) {
        Thread owner = spoutThread;
        Thread current = Thread.currentThread();
        if (owner != null && owner != current) {
            run.violation(task + ": " + what + " on thread " + current.getName() + ", nextTuple runs on " + owner.getName());
        }
        if (inNextTuple.get() && owner != current) {
            run.violation(task + ": " + what + " concurrently with nextTuple");
        }
        if (!(msgId instanceof Long)) {
            run.violation(task + ": " + what + " with a message id that was never emitted: " + msgId);
            return -1;
        }
        long id = (Long) msgId;
        if (!pending.remove(id)) {
            run.violation(task + ": " + what + " of id " + id + " that is not pending (acked or failed twice?)");
        }
        return id;
    }
}
