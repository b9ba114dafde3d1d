package io.microburst.server;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets go of what still points at a stopped topology's class loader from outside the topology, so that the loader, and
 * every class of the jar with it, can be collected.
 *
 * <ul>
 * <li><b>Shutdown hooks.</b> storm-client's {@code ShellBolt} and {@code ShellSpout} register one each time they start
 * (their heartbeat executor is Guava's "exiting" executor service, which adds one) and never remove it. A hook is an
 * unstarted thread that keeps the context class loader of the thread that created it. Once the topology has stopped
 * such a hook has nothing left to do (the executor it would shut down stopped with the component), so it is removed.
 * The JDK has no API that lists hooks: this reads {@code java.lang.ApplicationShutdownHooks}, which needs
 * {@code --add-opens java.base/java.lang=ALL-UNNAMED} (the {@code microburst} launcher passes it). Without it the
 * hooks stay, and the first attempt says so in the log.</li>
 * <li><b>The JDK's process reaper threads.</b> The JDK starts them, as needed, from the thread that starts a
 * subprocess (here a multi-lang component's executor thread), so they inherit its context class loader and keep it for
 * as long as they live, serving later subprocesses of other topologies too. They never use it; it is reset.</li>
 * </ul>
 */
final class LoaderRelease {
    private static final Logger LOG = LoggerFactory.getLogger(LoaderRelease.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();
    private static final String REAPER = "process reaper";

    private LoaderRelease() {
    }

    /** Releases what is named above for {@code loader}, whose topology has stopped. */
    static void release(ClassLoader loader) {
        int hooks = removeShutdownHooks(loader);
        int reapers = resetReapers(loader);
        if (hooks + reapers > 0) {
            LOG.debug("Released {}: {} shutdown hooks removed, {} process reaper threads reset", loader.getName(),
                hooks, reapers);
        }
    }

    private static int resetReapers(ClassLoader loader) {
        int reset = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (REAPER.equals(thread.getName()) && thread.getContextClassLoader() == loader) {
                thread.setContextClassLoader(LoaderRelease.class.getClassLoader());
                reset++;
            }
        }
        return reset;
    }

    private static int removeShutdownHooks(ClassLoader loader) {
        List<Thread> owned = new ArrayList<>();
        try {
            Class<?> hooksClass = Class.forName("java.lang.ApplicationShutdownHooks");
            Field field = hooksClass.getDeclaredField("hooks");
            field.setAccessible(true);
            synchronized (hooksClass) {
                Map<?, ?> hooks = (Map<?, ?>) field.get(null);
                if (hooks == null) {
                    return 0; // the JVM is shutting down: the hooks are running
                }
                for (Object key : hooks.keySet()) {
                    if (key instanceof Thread hook && hook.getContextClassLoader() == loader) {
                        owned.add(hook);
                    }
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            if (WARNED.compareAndSet(false, true)) {
                LOG.info("Cannot release the shutdown hooks of stopped topologies ({}); multi-lang components leave "
                    + "one each, which keeps the topology's classes loaded until the JVM exits. Start the JVM with "
                    + "--add-opens java.base/java.lang=ALL-UNNAMED to release them.", e.toString());
            }
            return 0;
        }
        int removed = 0;
        for (Thread hook : owned) {
            try {
                if (Runtime.getRuntime().removeShutdownHook(hook)) {
                    removed++;
                }
            } catch (IllegalStateException shuttingDown) {
                return removed;
            }
        }
        return removed;
    }
}
