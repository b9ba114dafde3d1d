package io.microburst;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Start-up help: the first submit in a JVM needs a few classes whose static initializers are slow (Storm's ConfigUtils
 * reads the annotations of every configuration field). A short-lived daemon thread initializes them while the submitting
 * thread reads configuration and plans the topology, so that on a multi-core machine the two overlap. Class
 * initialization is safe to race: a thread that needs a class being initialized waits for it.
 *
 * <p>Threading: any thread; the initializing thread is a daemon of its own.
 */
final class StormClasses {
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static volatile Thread worker;
    /**
     * Initialized in this order; the slowest first (every topology context needs ConfigUtils). Where the submitting
     * thread gets to a class first, it initializes that one itself and the warm-up moves on.
     */
    private static final String[] SLOW_TO_INITIALIZE = {
        "org.apache.storm.utils.ConfigUtils",
        "org.apache.storm.shade.net.minidev.json.JSONValue",
        "org.jctools.queues.MpscArrayQueue",
        "org.jctools.queues.MpscUnboundedXaddArrayQueue",
    };

    private StormClasses() {
    }

    /** Starts the warm-up once per JVM; returns at once. */
    static void initializeInBackground() {
        if (!STARTED.compareAndSet(false, true)) {
            return;
        }
        ClassLoader loader = StormClasses.class.getClassLoader();
        Thread t = new Thread(() -> {
            for (String name : SLOW_TO_INITIALIZE) {
                try {
                    Class.forName(name, true, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    return; // the submitting thread will meet the same problem and report it
                }
            }
        }, "microburst-class-init");
        t.setDaemon(true);
        worker = t;
        t.start();
    }

    /** Waits (briefly) for the warm-up thread, so that a closed cluster leaves no thread of ours behind. */
    static void awaitInitialized() {
        Thread t = worker;
        if (t == null) {
            return;
        }
        try {
            t.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
