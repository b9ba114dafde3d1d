package io.microburst.runtime.task;

import java.util.concurrent.locks.LockSupport;
import io.microburst.reliability.TrackedMessageId;
import io.microburst.runtime.clock.SharedTimer;
import org.apache.storm.tuple.MessageId;

/**
 * When the instance of a failed task is replaced, and what happens to a tuple that reaches the task before then: it
 * waits, holding back the thread that carries it as a full queue holds its producer back (the tuples behind it wait in
 * their queue, and the queue fills), and that thread replaces the instance itself once the time comes. The failure
 * policy sets the time ({@link #plan}): at once after a failure that followed work, after a backoff in a crash loop. So
 * a tuple never fails because its task is down; only a stop or a halt ends the wait, and then it fails back to its
 * spout. The runtime also posts {@link #replaceIfDue} for the planned time, for a task that gets no tuple.
 *
 * <p>Threading: the task's executor thread only (failures are reported there, and the runtime's mail runs there).
 */
public final class Replacement {
    /** The longest park of a waiting tuple: a stop or a halt ends the wait within it. */
    private static final long PARK_NANOS = 10_000_000L;
    /** How often a long wait stamps the trees of the tuples waiting here, so they do not time out (STORM-2359). */
    private static final long STAMP_NANOS = 1_000_000_000L;
    private final TaskRunner task;
    /** Whether a replacement is planned (false once it happened, or when a stop or a halt ended the task). */
    private boolean planned;
    /** When the planned replacement may happen: a {@link System#nanoTime()} reading. */
    private long dueNanos;
    /** Counts plans, so that a posted replacement for an earlier one does nothing. */
    private long plans;

    Replacement(TaskRunner task) {
        this.task = task;
    }

    /** The instance failed: no replacement is planned until the failure policy plans one. */
    void cancel() {
        planned = false;
    }

    /**
     * The failure policy plans the replacement of the failed instance in {@code delayMs} (0: as soon as anything reaches
     * the task, or the posted call runs). Returns the ticket for {@link #replaceIfDue}.
     */
    public long plan(long delayMs) {
        planned = true;
        dueNanos = System.nanoTime() + delayMs * 1_000_000L;
        return ++plans;
    }

    /**
     * The runtime's call for the replacement planned with {@code ticket}: replaces the instance, unless a waiting tuple
     * did it already, a later failure planned another, or the topology halted.
     */
    public void replaceIfDue(long ticket) {
        if (ticket == plans && planned && !task.up && !task.host.isHalted()) {
            planned = false;
            task.restart();
        }
    }

    /**
     * A tuple reached the task while its instance is down: waits for the planned replacement, makes it, and returns true
     * once an instance is up; false when a stop or a halt ends the wait, or nothing is planned (then the tuple fails).
     * While it waits, the thread parks (no spinning) and stamps the trees of the tuples waiting for it.
     */
    boolean await(MessageId id) {
        long stamped = System.nanoTime();
        while (!task.up) {
            if (!planned || task.host.isHalted() || task.inbox.stopRequested()) {
                return false;
            }
            long now = System.nanoTime();
            long wait = dueNanos - now;
            if (wait <= 0) {
                planned = false;
                task.restart(); // a failure there plans the next replacement
                continue;
            }
            if (now - stamped >= STAMP_NANOS) {
                stamped = now;
                stamp(id);
            }
            // an interrupt left over from the dead instance would end every park at once; a stop's is kept
            if (Thread.interrupted() && task.inbox.stopRequested()) {
                Thread.currentThread().interrupt();
                return false;
            }
            LockSupport.parkNanos(Math.min(wait, PARK_NANOS));
        }
        return true;
    }

    private void stamp(MessageId id) {
        long now = SharedTimer.stampNanos();
        if (id instanceof TrackedMessageId tracked) {
            tracked.touch(now);
        }
        task.inbox.touchQueued(now);
    }
}
