package io.microburst.runtime.executor;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How far an executor's thread is in its stop: first its loop ended (it runs no turn any more and has sent on all it
 * produced), then, its tasks closed, the thread ended. A kill's drain waits for the first, producers before their
 * consumers, so that the tasks of different executors close at the same time rather than one after the other; a stop
 * waits for the second. A thread never started counts as ended.
 *
 * <p>Threading: counted down by the executor's thread; read and awaited by any.
 */
final class StopLatches {
    private final CountDownLatch loopEnded = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);

    void loopEnded() {
        loopEnded.countDown();
    }

    void stopped() {
        stopped.countDown();
    }

    boolean isStopped() {
        return stopped.getCount() == 0;
    }

    /** Waits until {@code thread}'s loop ended, or {@code deadlineNanos} passed; true if it ended. */
    boolean awaitLoopEnd(Thread thread, long deadlineNanos) throws InterruptedException {
        return await(loopEnded, thread, deadlineNanos);
    }

    /** Waits until {@code thread} ended, or {@code deadlineNanos} passed; true if it ended. */
    boolean awaitStop(Thread thread, long deadlineNanos) throws InterruptedException {
        return await(stopped, thread, deadlineNanos);
    }

    private static boolean await(CountDownLatch latch, Thread thread, long deadlineNanos) throws InterruptedException {
        return thread == null || thread.getState() == Thread.State.NEW
            || latch.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    }
}
