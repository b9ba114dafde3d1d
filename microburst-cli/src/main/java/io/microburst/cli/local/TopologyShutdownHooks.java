package io.microburst.cli.local;

import java.lang.reflect.Field;
import java.util.Map;

/**
 * Whether a topology's code registered JVM shutdown hooks, which run when the process exits, after the run: Hadoop's
 * {@code ShutdownHookManager} (storm-hdfs's {@code FileSystem} cache), Guava's exiting executors (storm-client's
 * {@code ShellBolt}), a user's own cleanup. A hook is an unstarted thread; its class, or the context class loader it
 * inherited from the thread that created it, is the jar's loader. Such a hook loads the jar's classes as it runs, so the
 * run keeps the loader open for it, as {@code storm local} keeps the jar's classes until its JVM exits.
 *
 * <p>The JDK has no API that lists hooks: this reads {@code java.lang.ApplicationShutdownHooks}, which needs
 * {@code --add-opens java.base/java.lang=ALL-UNNAMED} (the {@code microburst} launcher passes it). Without it the
 * answer is "perhaps", and the loader stays open.
 */
final class TopologyShutdownHooks {
    private TopologyShutdownHooks() {
    }

    /** True if a registered shutdown hook belongs to {@code loader}, or if the hooks cannot be read. */
    static boolean mayNeed(ClassLoader loader) {
        try {
            Class<?> hooksClass = Class.forName("java.lang.ApplicationShutdownHooks");
            Field field = hooksClass.getDeclaredField("hooks");
            field.setAccessible(true);
            synchronized (hooksClass) {
                Map<?, ?> hooks = (Map<?, ?>) field.get(null);
                if (hooks == null) {
                    return true; // the JVM is shutting down: the hooks are running now
                }
                for (Object key : hooks.keySet()) {
                    if (key instanceof Thread hook
                            && (hook.getContextClassLoader() == loader || hook.getClass().getClassLoader() == loader)) {
                        return true;
                    }
                }
                return false;
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            return true;
        }
    }
}
