package io.microburst.runtime.clock;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.storm.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one timer thread of a cluster. It never runs user code: it only posts commands to executors' mailboxes (ticks,
 * timeouts, metric collection, task restarts), so a slow task cannot delay another topology's ticks.
 *
 * <p>Entries scheduled with {@link #onStormClock} are the ones whose timing a Storm user sees (tick tuples, message
 * timeouts, metrics ticks). On a timer made for simulated time they follow Storm's simulated clock
 * ({@code org.apache.storm.utils.Time}) instead of the wall clock: they fire when the clock is advanced, checked at
 * once by {@link #fireDueOnStormClock()} and every {@link #STORM_CLOCK_CHECK_MS} ms in case someone else advanced it
 * (storm-server's {@code trackedWait} does). Otherwise they are ordinary entries: real time costs nothing more.
 *
 * <p>Threading: any thread schedules; every action runs on the timer thread.
 */
public final class SharedTimer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SharedTimer.class);
    /** How often a simulated-time timer looks for entries that came due because Storm's clock moved. */
    static final long STORM_CLOCK_CHECK_MS = 10;
    /** How often a caller waiting for due entries to fire checks that the timer was not closed meanwhile. */
    private static final long CLOSE_CHECK_MS = 100;
    private final ScheduledThreadPoolExecutor scheduler;
    /** Null unless this timer follows Storm's simulated clock. */
    private final StormClockSchedule stormClock;

    /** A timer on the wall clock. */
    public SharedTimer(String name) {
        this(name, false);
    }

    /**
     * A timer whose {@link #onStormClock} entries follow Storm's simulated clock when {@code simulatedTime} is true,
     * the wall clock otherwise.
     */
    public SharedTimer(String name, boolean simulatedTime) {
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
        if (simulatedTime) {
            stormClock = new StormClockSchedule();
            scheduler.scheduleWithFixedDelay(guard(stormClock::fireDue), STORM_CLOCK_CHECK_MS, STORM_CLOCK_CHECK_MS,
                TimeUnit.MILLISECONDS);
        } else {
            stormClock = null;
        }
    }

    /**
     * Storm's clock in nanoseconds ({@code Time.nanoTime()}: the simulated one while simulated time is on), never 0,
     * which marks a tree never stamped. For message-timeout stamps, which {@link #onStormClock} rotations compare.
     */
    public static long stampNanos() {
        long now = Time.nanoTime();
        return now != 0 ? now : 1;
    }

    /** True when {@link #onStormClock} entries follow Storm's simulated clock. */
    public boolean simulatedTime() {
        return stormClock != null;
    }

    /**
     * A recurring entry on Storm's clock: the simulated one on a timer made for simulated time (see the class
     * comment), the wall clock otherwise.
     */
    public ScheduledFuture<?> onStormClock(long initialDelayMs, long periodMs, Runnable action) {
        if (stormClock == null) {
            return every(initialDelayMs, periodMs, action);
        }
        return stormClock.add(initialDelayMs, periodMs, guard(action));
    }

    /**
     * Fires, on the timer thread, every {@link #onStormClock} entry due at Storm's current simulated time, and returns
     * once they have run (their commands are then in the executors' mailboxes). Does nothing on a wall-clock timer or
     * a closed one.
     */
    public void fireDueOnStormClock() throws InterruptedException {
        if (stormClock == null || scheduler.isShutdown()) {
            return;
        }
        Future<?> fired;
        try {
            fired = scheduler.submit(stormClock::fireDue);
        } catch (RejectedExecutionException e) {
            return; // closed meanwhile: nothing is left to fire
        }
        while (true) {
            try {
                fired.get(CLOSE_CHECK_MS, TimeUnit.MILLISECONDS);
                return;
            } catch (ExecutionException e) {
                LOG.error("Timer action failed", e.getCause());
                return;
            } catch (TimeoutException e) {
                if (scheduler.isShutdown()) {
                    return; // closed meanwhile: the entry was dropped, not run
                }
            }
        }
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
