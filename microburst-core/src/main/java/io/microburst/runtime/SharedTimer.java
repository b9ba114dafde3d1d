package io.microburst.runtime;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one timer thread of a cluster. It never runs user code: it only posts commands to executors' mailboxes (ticks,
 * timeouts, metric collection, task restarts), so a slow task cannot delay another topology's ticks.
 *
 * <p>Threading: any thread schedules; every action runs on the timer thread.
 */
public final class SharedTimer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SharedTimer.class);
    private final ScheduledThreadPoolExecutor scheduler;

    public SharedTimer(String name) {
        scheduler = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            // Created on the first schedule, by whichever topology's submit comes first: without this the thread
            // would keep that topology's class loader (a server's per-topology loader) for the cluster's lifetime.
            t.setContextClassLoader(SharedTimer.class.getClassLoader());
            return t;
        });
        scheduler.setRemoveOnCancelPolicy(true);
        scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    public ScheduledFuture<?> every(long initialDelayMs, long periodMs, Runnable action) {
        return scheduler.scheduleAtFixedRate(guard(action), initialDelayMs, periodMs, TimeUnit.MILLISECONDS);
    }

    public ScheduledFuture<?> after(long delayMs, Runnable action) {
        return scheduler.schedule(guard(action), delayMs, TimeUnit.MILLISECONDS);
    }

    private static Runnable guard(Runnable action) {
        return () -> {
            try {
                action.run();
            } catch (Throwable t) {
                LOG.error("Timer action failed", t);
            }
        };
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        try {
            if (!scheduler.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("Timer thread did not stop within 5 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
