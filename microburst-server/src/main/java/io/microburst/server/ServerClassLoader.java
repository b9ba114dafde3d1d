package io.microburst.server;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The loader {@code microburst server} runs in: the JVM's class path (storm-client, Microburst, the server) under the
 * platform class loader, the same shape as {@code microburst local}'s loader, without a topology jar. What it cannot
 * find itself it asks of the calling thread's context class loader when that is a topology's loader (a
 * {@link TopologyClassLoader}, a child of this one): every thread that runs a topology's code has it as context loader
 * (submission, executor threads, the shared worker pool). So the places where storm-client loads a user class by name
 * ({@code Class.forName} in {@code StateFactory}, {@code ReflectionUtils} for metrics reporters and consumers) find
 * classes that only the topology's jar holds, as under {@code microburst local}, where storm-client is defined by the
 * loader that holds the jar.
 *
 * <p>The JVM remembers the answer for this loader: a class found this way is the one storm-client gets by that name
 * for as long as the server runs, whichever topology asks next (see docs/SERVER.md).
 *
 * <p>Thread-safe.
 */
public final class ServerClassLoader extends URLClassLoader {
    /** Set while a topology's loader is asked on this thread: it delegates to us, and must not come back here. */
    private static final ThreadLocal<Boolean> ASKING_TOPOLOGY = new ThreadLocal<>();

    static {
        registerAsParallelCapable();
    }

    private ServerClassLoader(URL[] urls) {
        super("microburst-server", urls, ClassLoader.getPlatformClassLoader());
    }

    /** A loader over this JVM's class path ({@code java.class.path}). */
    public static ServerClassLoader ofClassPath() {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                try {
                    urls.add(Path.of(entry).toAbsolutePath().toUri().toURL());
                } catch (IOException e) {
                    throw new UncheckedIOException("class path entry " + entry, e);
                }
            }
        }
        return new ServerClassLoader(urls.toArray(new URL[0]));
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        try {
            return super.findClass(name);
        } catch (ClassNotFoundException notOnClassPath) {
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            if (context == null || context == this || context.getParent() != this || ASKING_TOPOLOGY.get() != null) {
                throw notOnClassPath;
            }
            ASKING_TOPOLOGY.set(Boolean.TRUE);
            try {
                return context.loadClass(name);
            } finally {
                ASKING_TOPOLOGY.remove();
            }
        }
    }
}
