package io.microburst.cli.local;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Threads that a topology's code started and left running after its topologies were stopped (an executor never shut
 * down, a cache refresher, a {@code TimeCacheMap} cleaner). They are recognised by their context class loader, which
 * a thread inherits from the thread that started it: the run sets it to the jar's loader, so every thread started
 * inside the run has it unless it was changed on purpose.
 *
 * <p>Storm's {@code storm local} ends with the JVM, so such a thread simply stops there. {@code microburst local} ends
 * with the JVM too, but first closes the jar's class loader; a thread still running then fails on its next class or
 * resource lookup ({@code NoClassDefFoundError}). So before closing, {@link #end} interrupts them and waits a moment for
 * them to finish; the caller keeps the loader open when some do not.
 *
 * <p>Stateless; called by the thread that ran the topology, after its cluster was closed.
 */
final class LeftoverThreads {
    /** The JDK's threads that wait for child processes (a multi-lang subprocess) to exit: JDK code only. */
    private static final String PROCESS_REAPER = "process reaper";

    private LeftoverThreads() {
    }

    /** Live threads, other than the caller, whose context class loader is {@code loader}. */
    static List<Thread> of(ClassLoader loader) {
        List<Thread> left = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread != Thread.currentThread() && thread.isAlive() && thread.getContextClassLoader() == loader
                    && !thread.getName().startsWith(PROCESS_REAPER)) {
                left.add(thread);
            }
        }
        return left;
    }

    /**
     * Interrupts every leftover thread of {@code loader} and waits up to {@code grace} in all for them to end.
     *
     * @return the threads still alive after that
     */
    static List<Thread> end(ClassLoader loader, Duration grace) throws InterruptedException {
        List<Thread> left = of(loader);
        for (Thread thread : left) {
            thread.interrupt();
        }
        long deadline = System.nanoTime() + grace.toNanos();
        List<Thread> alive = new ArrayList<>();
        for (Thread thread : left) {
            long remainingMillis = Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
            if (remainingMillis > 0) {
                thread.join(remainingMillis);
            }
            if (thread.isAlive()) {
                alive.add(thread);
            }
        }
        return alive;
    }
}
