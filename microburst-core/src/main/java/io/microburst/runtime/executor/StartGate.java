package io.microburst.runtime.executor;

import io.microburst.runtime.task.Inbox;
import io.microburst.runtime.task.TaskRunner;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Lets a topology's executors open or prepare some tasks before the rest, so that a new version of a running topology
 * can start what is slow to start (a multi-lang component's subprocess) while the old version still runs and drains.
 * Until the gate opens, each executor starts only its early components' tasks, says it has ({@link #awaitEarly}
 * counts those arrivals), and then waits without running a turn: no mail, no tuple, no {@code nextTuple}, so the
 * early tasks do no visible work. Once the gate opens ({@link #open}) the other tasks start and the loop begins; a
 * stop requested meanwhile ends the wait, and the tasks not started are never started (nor closed).
 * {@link #OPEN} holds nothing back: every task starts at once, in task order, as in an ordinary start. Some early
 * components may block in their open until the gate is about to open (an upgrade's Trident coordinators, whose reads
 * of their state wait for the old version's stop): an executor with such a task says it has arrived before it starts
 * its early tasks, so {@link #awaitEarly} does not wait for them.
 *
 * <p>Threading: {@link #startTasks} on each executor's thread as it begins; {@link #open} and {@link #awaitEarly} on
 * any thread (the upgrading one).
 */
public final class StartGate {
    /** The gate of an ordinary start: every task at once. */
    public static final StartGate OPEN = new StartGate(Set.of(), Set.of(), true);

    private final Set<String> early;
    private final Set<String> blocking;
    private final Queue<Thread> waiting = new ConcurrentLinkedQueue<>();
    private volatile boolean opened;
    private int arrived; // executors done with their early tasks; guarded by this

    /** A closed gate that lets {@code earlyComponents}' tasks start at once. */
    public StartGate(Set<String> earlyComponents) {
        this(earlyComponents, Set.of(), false);
    }

    /**
     * A closed gate that lets {@code earlyComponents}' tasks start at once, some of which, {@code blockingComponents},
     * may block until the gate is about to open and are not waited for.
     */
    public StartGate(Set<String> earlyComponents, Set<String> blockingComponents) {
        this(earlyComponents, blockingComponents, false);
    }

    private StartGate(Set<String> earlyComponents, Set<String> blockingComponents, boolean opened) {
        this.early = Set.copyOf(earlyComponents);
        this.blocking = Set.copyOf(blockingComponents);
        this.opened = opened;
    }

    /** The components whose tasks start before the gate opens. */
    public Set<String> earlyComponents() {
        return early;
    }

    /**
     * The executor's thread, before its first turn: starts its tasks, the early ones at once and the others once the
     * gate is open. Returns false when a stop was requested before the gate opened (the loop must not run).
     */
    boolean startTasks(TaskRunner[] tasks, Inbox inbox) {
        if (opened) {
            for (TaskRunner task : tasks) {
                task.start();
            }
            return true;
        }
        boolean mayBlock = false;
        for (TaskRunner task : tasks) {
            mayBlock |= blocking.contains(task.componentId());
        }
        if (mayBlock) {
            arrive(); // before the early tasks, which may block until the gate is about to open
        }
        for (TaskRunner task : tasks) {
            if (early.contains(task.componentId())) {
                task.start();
            }
        }
        if (!mayBlock) {
            arrive();
        }
        Thread me = Thread.currentThread();
        waiting.add(me); // before reading the flag, so an open after the read unparks this thread
        while (!opened && !inbox.stopRequested()) {
            LockSupport.park(this);
        }
        waiting.remove(me);
        if (!opened) {
            return false;
        }
        for (TaskRunner task : tasks) {
            if (!early.contains(task.componentId())) {
                task.start();
            }
        }
        return true;
    }

    private synchronized void arrive() {
        arrived++;
        notifyAll();
    }

    /**
     * Waits until {@code executors} executors have started their early tasks (whether each open or prepare succeeded
     * or failed), for at most {@code timeoutMs}; returns whether they all have.
     */
    public synchronized boolean awaitEarly(int executors, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (arrived < executors) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** Opens the gate: every waiting executor starts its other tasks and begins its loop. */
    public void open() {
        opened = true;
        for (Thread t : waiting) {
            LockSupport.unpark(t);
        }
    }
}
