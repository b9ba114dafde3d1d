package io.microburst.cli.local;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A user's topology jar, loaded by its own class loader whose parent is the command line's class loader, so that
 * Storm's API classes are shared (parent first) while the topology's classes come from the jar. Close it once no
 * topology from the jar is running any more.
 *
 * <p>Not thread-safe: one thread loads the jar and calls its main.
 */
public final class TopologyJar implements AutoCloseable {
    private final Path path;
    private final URLClassLoader classLoader;

    /**
     * @throws IOException if {@code path} is not a readable regular file
     */
    public TopologyJar(Path path) throws IOException {
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new IOException("not a readable jar file: " + path);
        }
        this.path = path.toAbsolutePath();
        this.classLoader = new URLClassLoader(new URL[] {this.path.toUri().toURL()},
                TopologyJar.class.getClassLoader());
    }

    /** The absolute path of the jar: what {@code StormSubmitter} expects in the {@code storm.jar} system property. */
    public Path path() {
        return path;
    }

    /** The class loader of the jar's classes. */
    public ClassLoader classLoader() {
        return classLoader;
    }

    /**
     * Finds {@code public static void main(String[])} in {@code mainClass}.
     *
     * @throws ClassNotFoundException if the class is not in the jar (or on the command line's class path)
     * @throws NoSuchMethodException if it has no public static main(String[])
     */
    public Method findMain(String mainClass) throws ClassNotFoundException, NoSuchMethodException {
        Class<?> type = Class.forName(mainClass, true, classLoader);
        Method main = type.getMethod("main", String[].class);
        if (!Modifier.isStatic(main.getModifiers())) {
            throw new NoSuchMethodException(mainClass + ".main(String[]) is not static");
        }
        return main;
    }

    /**
     * Calls {@code main} on the current thread with the jar's class loader as the thread's context class loader
     * (restored afterwards), because the cluster deserialises spouts and bolts with the context class loader of the
     * thread that submits them.
     *
     * @throws TopologyMainFailedException if main throws anything
     */
    public void runMain(Method main, List<String> args) throws TopologyMainFailedException {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(classLoader);
        try {
            main.invoke(null, (Object) args.toArray(new String[0]));
        } catch (InvocationTargetException e) {
            throw new TopologyMainFailedException(main.getDeclaringClass().getName(), e.getCause());
        } catch (IllegalAccessException e) {
            throw new TopologyMainFailedException(main.getDeclaringClass().getName(), e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    @Override
    public void close() throws IOException {
        classLoader.close();
    }
}
