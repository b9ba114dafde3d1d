package io.microburst.it.support;

import java.security.Permission;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the reference runtime from ending the test JVM. Storm's LocalCluster runs its workers in this JVM, and a
 * worker's timers call {@code Utils.exitProcess} (exit code 20) when one of their events throws, which happens when a
 * worker is being shut down while its timers still fire (a kill with no wait, then closing the cluster). In a real
 * worker process that ends one worker; here it would end the whole suite. While the guard is installed, such an exit
 * is refused on the thread that asked for it (that timer thread ends) and logged with its stack, and every other exit
 * goes ahead. The guard uses a security manager, which only JDK 17 still lets a program install; on later JDKs it
 * logs that it cannot, and Storm keeps its power to halt.
 *
 * <p>Also offers {@link #awaitWorkersGone}, so a test can let Storm finish stopping a killed topology's worker before
 * it closes the cluster.
 */
public final class StormHalts {
    private static final Logger LOG = LoggerFactory.getLogger(StormHalts.class);
    private static final String STORM_EXIT = "org.apache.storm.utils.Utils.exitProcess";
    /** The timers of a Storm worker (WorkerState), whose threads carry these names while the worker lives. */
    private static final List<String> WORKER_TIMERS = List.of("heartbeat-timer", "refresh-load-timer",
        "refresh-connections-timer", "refresh-credentials-timer", "check-for-updated-blobs-timer",
        "reset-log-levels-timer", "refresh-active-timer", "executor-heartbeat-timer", "flush-tuple-timer", "user-timer",
        "backpressure-check-timer");
    private static final List<String> REFUSED = new CopyOnWriteArrayList<>();
    private static boolean installed;

    private StormHalts() {
    }

    /** Installs the guard once per JVM (see the class comment). */
    @SuppressWarnings("removal")
    public static synchronized void guard() {
        if (installed) {
            return;
        }
        installed = true;
        // With a security manager present when the common pool is created, its threads would be "innocuous" ones that
        // refuse context class loaders; create it first, as it is in any JVM without the guard.
        ForkJoinPool.commonPool();
        try {
            System.setSecurityManager(new RefuseStormHalts());
        } catch (UnsupportedOperationException | SecurityException e) {
            LOG.warn("This JDK does not let a program install a security manager: Storm's LocalCluster can still end "
                + "the test JVM when one of its worker timers fails ({})", e.toString());
        }
    }

    /** The exits refused so far, one line each: thread and status. */
    public static List<String> refused() {
        return List.copyOf(REFUSED);
    }

    /**
     * Waits until no thread of a Storm worker's timers is alive in this JVM (a killed topology's worker has stopped),
     * at most {@code limit}; returns false, with a warning, if some still run then (the caller goes on: the guard
     * still stands).
     */
    public static boolean awaitWorkersGone(Duration limit) {
        try {
            Await.until("Storm's workers to stop", () -> workerTimerThreads().isEmpty(), limit,
                () -> workerTimerThreads().toString());
            return true;
        } catch (AssertionError e) {
            LOG.warn("{}", e.getMessage());
            return false;
        }
    }

    private static List<String> workerTimerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.isAlive() && WORKER_TIMERS.contains(t.getName()))
            .map(Thread::getName)
            .collect(Collectors.toList());
    }

    @SuppressWarnings("removal")
    private static final class RefuseStormHalts extends SecurityManager {
        @Override
        public void checkPermission(Permission perm) {
            // everything is allowed; only exits are looked at
        }

        @Override
        public void checkPermission(Permission perm, Object context) {
        }

        @Override
        public void checkExit(int status) {
            for (StackTraceElement frame : Thread.currentThread().getStackTrace()) {
                if (STORM_EXIT.equals(frame.getClassName() + "." + frame.getMethodName())) {
                    String what = "thread " + Thread.currentThread().getName() + ", status " + status;
                    REFUSED.add(what);
                    LOG.error("Refused Storm's LocalCluster ending the test JVM ({}); the thread that asked ends instead",
                        what, new IllegalStateException("Utils.exitProcess from " + what));
                    throw new SecurityException("Storm's Utils.exitProcess refused in the test JVM (" + what + ")");
                }
            }
        }
    }
}
