package io.microburst.cli.local;

import io.microburst.server.TopologyClassLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import org.apache.storm.generated.AlreadyAliveException;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.thrift.TException;

/**
 * {@code microburst local --watch}: polls the jar's modification time and size and, once a change has held still for
 * one poll (a build still writing it changes it again), runs the main again from a copy of the new jar, in a class
 * loader of its own whose classes come before the running version's ({@link TopologyClassLoader}), with
 * {@link LocalNimbus#reloading} set: its {@code StormSubmitter} submit of a running topology's name is that topology's
 * new version, handed over as {@code microburst upgrade} does (checked first, tuples in flight finished, state
 * carried). A jar that cannot be read, a main that fails and a refused upgrade print one line and leave the running
 * version as it is. The previous reload's loader is closed once its version was replaced; the first version's classes
 * are the run's own and stay loaded, so classes that storm-client loads by name (a state provider, a serializer) are
 * found there first.
 *
 * <p>Threading: polls and reloads on its own daemon thread, {@value #THREAD}; {@link #close()} from the run's thread
 * stops it and waits for a reload in progress to end.
 */
final class JarWatch implements AutoCloseable {
    static final String THREAD = "microburst-jar-watch";

    private final Path jar;
    private final String mainClass;
    private final List<String> mainArgs;
    private final LocalNimbus nimbus;
    private final PrintStream out;
    private final PrintStream err;
    private final Duration poll;
    private final Thread thread;
    /** Set by {@link #close()}; a reload in progress finishes first (it holds this object's monitor). */
    private volatile boolean stopping;
    /** The loader of the version the last reload started; null while the run's first version runs. Watch thread. */
    private TopologyClassLoader current;
    private int reloads;

    private JarWatch(Path jar, String mainClass, List<String> mainArgs, LocalNimbus nimbus, PrintStream out,
                     PrintStream err, Duration poll) {
        this.jar = jar.toAbsolutePath();
        this.mainClass = mainClass;
        this.mainArgs = List.copyOf(mainArgs);
        this.nimbus = nimbus;
        this.out = out;
        this.err = err;
        this.poll = poll;
        this.thread = new Thread(this::watch, THREAD);
        thread.setDaemon(true);
    }

    /** Starts watching {@code jar}, as it is now being the version that runs. */
    static JarWatch start(Path jar, String mainClass, List<String> mainArgs, LocalNimbus nimbus, PrintStream out,
                          PrintStream err, Duration poll) {
        JarWatch watch = new JarWatch(jar, mainClass, mainArgs, nimbus, out, err, poll);
        watch.thread.start();
        return watch;
    }

    private void watch() {
        Object loaded = stamp();
        Object seen = loaded;
        try {
            while (!stopping) {
                Thread.sleep(poll.toMillis());
                Object now = stamp();
                if (now != null && now.equals(seen) && !now.equals(loaded)) {
                    loaded = now;
                    synchronized (this) {
                        if (!stopping) {
                            reload();
                        }
                    }
                }
                seen = now;
            }
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
        }
    }

    /** The jar's modification time and size, or null while it is missing (being replaced). */
    private Object stamp() {
        try {
            BasicFileAttributes attributes = Files.readAttributes(jar, BasicFileAttributes.class);
            return List.of(attributes.lastModifiedTime(), attributes.size());
        } catch (NoSuchFileException missing) {
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    private void reload() {
        String shown = jar.getFileName().toString();
        Path copy;
        TopologyClassLoader loader;
        try {
            copy = Files.createTempFile("microburst-watch-", ".jar");
            copy.toFile().deleteOnExit();
            Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
            try (JarFile readable = new JarFile(copy.toFile())) {
                readable.size(); // opens only as a zip file
            }
            loader = new TopologyClassLoader("watch-" + (reloads + 1), copy, JarWatch.class.getClassLoader());
        } catch (IOException e) {
            err.println("microburst: " + shown + " changed but cannot be read as a jar (" + e.getMessage()
                + "); the running version goes on");
            return;
        }
        Map<String, String> before = ids();
        String previousJar = System.setProperty("storm.jar", copy.toString());
        nimbus.reloading(true);
        try {
            Method main = TopologyJar.findMain(mainClass, loader);
            TopologyJar.runMain(main, mainArgs, loader);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            closeQuietly(loader);
            err.println("microburst: " + shown + " changed but has no class " + mainClass + " with a public static "
                + "main(String[]); the running version goes on");
            return;
        } catch (TopologyMainFailedException e) {
            closeQuietly(loader);
            err.println("microburst: " + shown + " changed but was not loaded: " + reason(e.getCause())
                + "; the running version goes on");
            return;
        } finally {
            nimbus.reloading(false);
            restore(previousJar);
        }
        reloads++;
        TopologyClassLoader replaced = current;
        current = loader;
        if (replaced != null) {
            closeQuietly(replaced);
        }
        report(shown, before);
    }

    private void report(String shown, Map<String, String> before) {
        Map<String, String> after = ids();
        StringBuilder upgraded = new StringBuilder();
        for (Map.Entry<String, String> e : after.entrySet()) {
            if (!e.getValue().equals(before.get(e.getKey()))) {
                upgraded.append(upgraded.length() == 0 ? "" : ", ").append(e.getKey()).append(" (")
                    .append(schedStatus(e.getKey())).append(')');
            }
        }
        out.println(upgraded.length() == 0 ? "microburst: " + shown + " changed, but " + mainClass + ".main upgraded "
            + "none of the running topologies" : "microburst: reloaded " + shown + ": " + upgraded);
    }

    /** The id of each running topology submitted in this run. */
    private Map<String, String> ids() {
        Map<String, String> ids = new LinkedHashMap<>();
        for (String name : nimbus.submittedTopologies()) {
            try {
                ids.put(name, nimbus.getTopologySummaryByName(name).get_id());
            } catch (TException | RuntimeException gone) {
                // not running any more: nothing to compare
            }
        }
        return ids;
    }

    private String schedStatus(String name) {
        try {
            TopologySummary summary = nimbus.getTopologySummaryByName(name);
            return summary.is_set_sched_status() ? summary.get_sched_status() : summary.get_id();
        } catch (TException | RuntimeException e) {
            return "running";
        }
    }

    /** The cluster's refusal when the submit was refused, else what the main threw, in one line. */
    private static String reason(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof InvalidTopologyException e && e.get_msg() != null) {
                return e.get_msg();
            } else if (t instanceof AlreadyAliveException e && e.get_msg() != null) {
                return e.get_msg();
            }
        }
        String message = thrown.getMessage();
        return "its main failed: " + (message == null || message.isBlank() ? thrown.getClass().getSimpleName()
            : message.lines().findFirst().orElse(""));
    }

    private static void restore(String previous) {
        if (previous == null) {
            System.clearProperty("storm.jar");
        } else {
            System.setProperty("storm.jar", previous);
        }
    }

    private void closeQuietly(TopologyClassLoader loader) {
        try {
            loader.close();
        } catch (IOException e) {
            err.println("microburst: " + e.getMessage());
        }
    }

    /** Stops watching; a reload in progress ends first. */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        synchronized (this) {
            thread.interrupt(); // only ever while it polls: a reload holds the monitor
        }
        thread.join();
    }
}
