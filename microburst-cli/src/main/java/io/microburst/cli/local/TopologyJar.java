package io.microburst.cli.local;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarFile;

/**
 * A user's topology jar and the class loader a run of it uses: one loader holding the command line's own class path
 * (storm-client, Microburst) followed by the jar, under the platform class loader, as {@code storm local} puts the
 * jar on the JVM's class path after Storm's libraries. Storm's classes come first, so a jar cannot replace them; and
 * every path in storm-client that loads a user class by name or deserializes one ({@code Class.forName} in
 * {@code StateFactory}, {@code ReflectionUtils}, metrics consumers, serializers; {@code Utils.javaDeserialize} for
 * LinearDRPC's batch bolts) sees the jar, because storm-client itself is defined by this loader. The same shape gives
 * each topology a loader of its own when several jars share one process. Close it once no topology from the jar is
 * running any more.
 *
 * <p>Not thread-safe: one thread loads the jar and calls its main.
 */
public final class TopologyJar implements AutoCloseable {
    /** storm-client's default configuration, read by {@code Utils.readStormConfig()}, which wants exactly one. */
    private static final String STORM_DEFAULTS = "defaults.yaml";
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
        List<URL> urls = new ArrayList<>();
        for (Path entry : commandLineClassPath()) {
            urls.add(entry.toUri().toURL());
        }
        urls.add(this.path.toUri().toURL());
        this.classLoader = new StormDefaultsOnce(urls.toArray(new URL[0]));
    }

    /**
     * The loader of a run: as a {@link URLClassLoader} over the command line's class path and the jar, but storm-client's
     * {@code defaults.yaml} is found once, the command line's. A jar that bundles its own storm-client brings a second
     * one, and storm-client then refuses to read its configuration ("Found multiple defaults.yaml resources"), as
     * Storm's workers do; its bundled classes are never used anyway (the command line's come first), so the run goes
     * on with Microburst's, and {@link LocalRun} says so ({@link #bundledStormClient()}).
     */
    private static final class StormDefaultsOnce extends URLClassLoader {
        static {
            ClassLoader.registerAsParallelCapable();
        }

        StormDefaultsOnce(URL[] urls) {
            super("microburst-topology", urls, ClassLoader.getPlatformClassLoader());
        }

        @Override
        public Enumeration<URL> findResources(String name) throws IOException {
            Enumeration<URL> all = super.findResources(name);
            if (!STORM_DEFAULTS.equals(name) || !all.hasMoreElements()) {
                return all;
            }
            return Collections.enumeration(List.of(all.nextElement()));
        }
    }

    /**
     * The one line to print when the jar bundles storm-client ({@link #bundledStormClient()}): that the copy is not
     * used, and what to change; empty for a jar built as it should be (or whose entries cannot be read).
     */
    public Optional<String> bundlingNote() {
        List<String> bundled;
        try {
            bundled = bundledStormClient();
        } catch (IOException e) {
            return Optional.empty(); // the main's lookup reports an unreadable jar
        }
        return bundled.isEmpty() ? Optional.empty() : Optional.of(path.getFileName() + " bundles its own storm-client ("
                + String.join(", ", bundled) + "); it is not used, Microburst's storm-client runs the topology. Storm"
                + " refuses such a jar: build it with storm-client in provided scope");
    }

    /**
     * Which of storm-client's own files the jar bundles ({@code defaults.yaml}, {@code org/apache/storm/StormSubmitter.class}),
     * empty when none: such a jar was built with storm-client in compile scope instead of {@code provided}.
     */
    public List<String> bundledStormClient() throws IOException {
        List<String> found = new ArrayList<>();
        try (JarFile file = new JarFile(path.toFile())) {
            for (String entry : List.of(STORM_DEFAULTS, "org/apache/storm/StormSubmitter.class")) {
                if (file.getEntry(entry) != null) {
                    found.add(entry);
                }
            }
        }
        return found;
    }

    /** The command line's own class path (the JVM's), absolute, in order. */
    public static List<Path> commandLineClassPath() {
        List<Path> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                entries.add(Path.of(entry).toAbsolutePath());
            }
        }
        return entries;
    }

    /** The absolute path of the jar: what {@code StormSubmitter} expects in the {@code storm.jar} system property. */
    public Path path() {
        return path;
    }

    /** The class loader of the jar's classes, and of the Storm and Microburst classes that run them. */
    public ClassLoader classLoader() {
        return classLoader;
    }

    /**
     * Finds {@code public static void main(String[])} in {@code mainClass}, loaded by {@code loader}.
     *
     * @throws ClassNotFoundException if the class is not in the jar (or on the command line's class path)
     * @throws NoSuchMethodException if it has no public static main(String[])
     */
    static Method findMain(String mainClass, ClassLoader loader) throws ClassNotFoundException, NoSuchMethodException {
        Class<?> type = Class.forName(mainClass, true, loader);
        Method main = type.getMethod("main", String[].class);
        if (!Modifier.isStatic(main.getModifiers())) {
            throw new NoSuchMethodException(mainClass + ".main(String[]) is not static");
        }
        return main;
    }

    /**
     * Calls {@code main} on the current thread with {@code loader}, the class loader of the jar's classes, as the
     * thread's context class loader (restored afterwards), because the cluster deserialises spouts and bolts with the
     * context class loader of the thread that submits them.
     *
     * @throws TopologyMainFailedException if main throws anything
     */
    static void runMain(Method main, List<String> args, ClassLoader loader) throws TopologyMainFailedException {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
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
