package io.microburst.runtime.topology;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.BoltTask;
import io.microburst.runtime.task.Inbox;
import io.microburst.runtime.task.Switchboard;
import io.microburst.runtime.task.TaskRunner;

/**
 * Undoes a cut without a rebuild: the tasks a cut moved to an executor of their own ({@link Placement#add}) move back
 * into the executor they left, fused again, with the same user instances, state, held tuples and statistics. No
 * {@code prepare}, {@code cleanup} or tree failure: to the user's code it is as if nothing happened.
 *
 * <p>The order of each producer-consumer pair is kept. The executor the tasks return to ({@code home}: it runs their
 * producer, the only one that sends to them) hands over what it batched for them, asks the executor they run on
 * ({@code away}) to let go of them, and waits, so nothing new is sent meanwhile. {@code away}, on its own thread and
 * between turns, first executes every tuple already queued for them, then moves them ({@link Placement#moveBack})
 * and stops. {@code home} then runs them, calls the first directly again, and the list of executors drops
 * {@code away} ({@link Placement#retire}). A wait longer than {@link #WAIT_MS} (the tasks finish their queue first: a
 * queue of a slow bolt's tuples) or a stop gives up, and the cut stays: whichever of the two threads decides first
 * wins, so the tasks never end up on neither executor or on both.
 *
 * <p>Threading: {@link #bringBack} runs on {@code home}'s thread, between turns; {@link #letGo} on {@code away}'s.
 */
final class CutReturn {
    /** How long {@code home} waits for {@code away} to execute what is queued for the tasks and let them go. */
    static final long WAIT_MS = 5_000;
    private static final int WAITING = 0;
    private static final int LET_GO = 1;
    private static final int GIVEN_UP = 2;

    private final AtomicInteger state = new AtomicInteger(WAITING);
    private final CountDownLatch moved = new CountDownLatch(1);
    /** The tasks that moved; written by {@code away} before {@link #moved} counts down. */
    private TaskRunner[] returning = new TaskRunner[0];

    private CutReturn() {
    }

    /**
     * Moves {@code head} and the tasks that moved with it back into {@code home}; {@code home}'s own thread.
     *
     * @return the tasks now back on {@code home}, or null when they stay where they are (see the class comment)
     */
    static TaskRunner[] bringBack(Placement placement, Switchboard board, Executor home, BoltTask head) {
        Executor away = placement.executorOf(head);
        if (away == home || head.inbox() != away.inbox()) {
            return null;
        }
        home.outbox().flushAll(); // every tuple sent to the tasks is now in away's queue, or executed
        CutReturn r = new CutReturn();
        away.post(() -> r.letGo(placement, away, home));
        if (!r.await(home.inbox(), board)) {
            return null;
        }
        TaskRunner[] now = Arrays.copyOf(home.tasks(), home.tasks().length + r.returning.length);
        System.arraycopy(r.returning, 0, now, home.tasks().length, r.returning.length);
        home.runTasks(now);
        head.setFused(true); // from the next emit on, its producer calls it again
        placement.retire(away);
        return r.returning;
    }

    /** {@code home}'s thread: true once the tasks moved, false when it gave up first. */
    private boolean await(Inbox home, Switchboard board) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    if (moved.await(10, TimeUnit.MILLISECONDS)) {
                        return true;
                    }
                } catch (InterruptedException e) {
                    interrupted = true; // a stop interrupts a thread it finds busy: give up, as below
                }
                boolean over = interrupted || home.stopRequested() || board.isHalted() || System.nanoTime() > deadline;
                if (over && state.compareAndSet(WAITING, GIVEN_UP)) {
                    return false;
                }
                if (over) {
                    moved.await(); // away already moves them: no user code left, a moment
                    return true;
                }
            }
        } catch (InterruptedException e) {
            interrupted = true;
            return moved.getCount() == 0;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * {@code away}'s thread, between turns: executes what is queued here for the tasks (sent before {@code home}
     * started to wait), hands on what they emitted, and moves them, unless {@code home} gave up meanwhile.
     */
    private void letGo(Placement placement, Executor away, Executor home) {
        Inbox in = away.inbox();
        int rounds = 0;
        while (in.drainLocal() + in.drainInbox() > 0 && state.get() == WAITING && ++rounds < 1_000_000) {
            away.outbox().flushAll(); // what the tasks emitted goes on as it would between turns
        }
        away.outbox().flushAll();
        if (!state.compareAndSet(WAITING, LET_GO)) {
            return; // home gave up: the cut stays
        }
        returning = placement.moveBack(away, home);
        in.setBusy(false); // no longer one of the topology's busy threads
        moved.countDown();
        away.requestDrainingStop(); // ends after a last turn that forwards anything still arriving here
    }
}
