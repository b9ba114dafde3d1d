package io.microburst.runtime.topology;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The short-lived threads of a topology's delayed kill and rebalance: each waits out its delay, or less once a stop
 * cuts every wait short, then runs its action. Any thread.
 */
final class DelayedActions {
    private final String topologyName;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final CountDownLatch cutShort = new CountDownLatch(1);

    DelayedActions(String topologyName) {
        this.topologyName = topologyName;
    }

    /** Runs {@code action} on a short-lived thread after {@code secs}, or at once when the wait is cut short. */
    void after(String role, int secs, Runnable action) {
        Thread t = new Thread(() -> {
            try {
                cutShort.await(secs, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            action.run();
        }, "microburst-" + topologyName + "-" + role);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    /** Every wait ends now, and every later one at once. */
    void cutShort() {
        cutShort.countDown();
    }

    /** Waits for the threads (up to 10 s each), except the calling one. */
    void await() {
        for (Thread t : threads) {
            if (t != Thread.currentThread()) {
                try {
                    t.join(10_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
