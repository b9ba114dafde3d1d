package io.microburst.runtime.executor;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The calling thread's CPU time, for the {@link Balancer}'s windows: how long the executor's thread ran on a core, as
 * against how long it was not parked. Read once a window, never per tuple.
 *
 * <p>Threading: any thread; each call reads the caller's own time.
 */
final class ThreadCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean SUPPORTED = supported();

    private ThreadCpu() {
    }

    private static boolean supported() {
        try {
            return THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    /** The calling thread's CPU time in nanoseconds, or -1 where the platform does not measure it. */
    static long currentNanos() {
        return SUPPORTED ? THREADS.getCurrentThreadCpuTime() : -1;
    }
}
