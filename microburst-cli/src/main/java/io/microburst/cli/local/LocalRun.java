package io.microburst.cli.local;

import io.microburst.cli.ClusterFactory;
import io.microburst.cli.Command;
import io.microburst.cli.UsageException;
import io.microburst.drpc.InProcessDrpc;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.apache.storm.ILocalCluster;
import org.apache.storm.utils.DRPCClient;
import org.apache.storm.utils.NimbusClient;

/**
 * {@code microburst local}: runs a topology jar's main against an in-process cluster, keeps the cluster running for
 * the requested duration (or until the JVM is asked to stop), then stops every topology gracefully. With
 * {@code --watch} it runs a copy of the jar and, while it waits, reloads its topologies when the jar changes
 * ({@link JarWatch}); a main that runs its own {@code new LocalCluster()} is not reloaded.
 *
 * <p>Runs on the calling thread; registers a shutdown hook for Ctrl-C and removes it when it returns normally. Uses
 * process-wide state that Storm's submitter reads (the {@code storm.jar} system property and the
 * {@link NimbusClient.LocalOverride}, and a {@link DRPCClient.LocalOverride} to an {@link InProcessDrpc}, as Storm's
 * local mode installs one), so only one run may be active in a JVM at a time.
 */
public final class LocalRun {
    /** Storm's {@code KillOptions.wait_secs} used at the end of a run. */
    public static final int KILL_WAIT_SECS = 3;
    private static final String STORM_JAR_PROPERTY = "storm.jar";
    /** How long threads the topology left running get to end once interrupted, in all. */
    private static final Duration LEFTOVER_GRACE = Duration.ofSeconds(1);
    /** Marks a usage error crossing back from the topology's class loader. */
    private static final String USAGE_PREFIX = "usage: ";
    /** How often {@code --watch} looks at the jar; a change is taken once it held still for one look. */
    private static final Duration WATCH_POLL = Duration.ofMillis(250);

    private final Command.Local command;
    private final Supplier<? extends ILocalCluster> clusterFactory;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * @param clusterFactory creates the cluster; called once, after the jar and its main class were found, by the
     *     instance that runs inside the topology's class loader ({@link #runInTopologyLoader} passes
     *     {@link ClusterFactory#fromSystemProperties()}); {@link #run()} only starts that instance
     */
    public LocalRun(Command.Local command, Supplier<? extends ILocalCluster> clusterFactory, PrintStream out,
                    PrintStream err) {
        this.command = command;
        this.clusterFactory = clusterFactory;
        this.out = out;
        this.err = err;
    }

    /**
     * Runs to the end. The run itself happens inside the jar's {@link TopologyJar#classLoader() class loader}, which
     * holds its own copy of Storm and Microburst next to the jar (see {@link TopologyJar}), with the cluster created
     * there by {@link ClusterFactory#fromSystemProperties()}.
     *
     * @return the process exit status: 0 when the run ended as planned, 1 when the topology's main failed
     * @throws UsageException if the jar cannot be read or has no usable main class
     */
    public int run() throws UsageException, InterruptedException {
        TopologyJar jar = openJar();
        Future<List<List<String>>> loggers = jarLoggers(jar);
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(jar.classLoader());
        try {
            Class<?> inside = Class.forName(LocalRun.class.getName(), true, jar.classLoader());
            Method entry = inside.getMethod("runInTopologyLoader", Optional.class, Map.class, Path.class, Path.class,
                    boolean.class, String.class, List.class, Future.class, PrintStream.class, PrintStream.class);
            return (Integer) entry.invoke(null, command.duration(), command.confOverrides(), command.jar(), jar.path(),
                    command.watch(), command.mainClass(), command.mainArgs(), loggers, out, err);
        } catch (InvocationTargetException e) {
            throw rethrown(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot start the run inside the topology's class loader: " + e, e);
        } finally {
            thread.setContextClassLoader(previous);
            closeUnlessInUse(jar);
        }
    }

    /**
     * Closes the jar's class loader once the threads the topology left running have ended (see
     * {@link LeftoverThreads}) and unless the topology registered shutdown hooks (see {@link TopologyShutdownHooks});
     * otherwise the loader stays open until the process exits, as Storm's worker keeps its classes until it exits.
     */
    private void closeUnlessInUse(TopologyJar jar) throws InterruptedException {
        List<Thread> alive = LeftoverThreads.end(jar.classLoader(), LEFTOVER_GRACE);
        if (alive.isEmpty()) {
            if (!TopologyShutdownHooks.mayNeed(jar.classLoader())) {
                closeQuietly(jar);
            }
            return;
        }
        List<String> names = alive.stream().map(Thread::getName).sorted().toList();
        err.println("microburst: " + names.size() + " thread(s) still running after the topology stopped did not end "
                + "when interrupted " + names + "; its classes stay loaded until the process exits");
    }

    /**
     * The run, called by {@link #run()} through the topology's class loader, in which this class is then loaded: its
     * parameters and exceptions are JDK types only, since Microburst's and Storm's classes differ between the loaders.
     * The jar's own loggers ({@link JarLoggers}: shown, then kept names) are set here, before the main class is loaded,
     * in the log4j2 configuration of this loader, which is the one the topology's classes log through.
     *
     * @param jar the jar as the user named it (watched with {@code watch})
     * @param loaded the file the loader reads: the jar, or with {@code watch} a copy of it, which a rebuild does not
     *     change under the running version
     */
    public static int runInTopologyLoader(Optional<Duration> duration, Map<String, Object> confOverrides, Path jar,
                                          Path loaded, boolean watch, String mainClass, List<String> mainArgs,
                                          Future<List<List<String>>> loggers, PrintStream out, PrintStream err)
            throws InterruptedException, IllegalArgumentException {
        applyJarLoggers(loggers, err);
        Command.Local command = new Command.Local(duration, confOverrides, jar, mainClass, mainArgs, watch);
        LocalRun run = new LocalRun(command, ClusterFactory.fromSystemProperties(), out, err);
        Method main;
        try {
            main = run.findMain(LocalRun.class.getClassLoader());
        } catch (UsageException e) {
            throw new IllegalArgumentException(USAGE_PREFIX + e.getMessage());
        }
        return run.runWithCluster(loaded, main);
    }

    /** Maps what the run inside the topology's class loader threw to what {@link #run()} declares. */
    private static RuntimeException rethrown(Throwable cause) throws UsageException, InterruptedException {
        if (cause instanceof InterruptedException interrupted) {
            throw interrupted;
        }
        if (cause instanceof IllegalArgumentException e && e.getMessage() != null
                && e.getMessage().startsWith(USAGE_PREFIX)) {
            throw new UsageException(e.getMessage().substring(USAGE_PREFIX.length()));
        }
        if (cause instanceof RuntimeException e) {
            return e;
        }
        if (cause instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(cause);
    }

    private int runWithCluster(Path jarPath, Method main) throws InterruptedException {
        // As storm local -c does: the overrides are Storm's configuration for the whole run (Utils.readStormConfig()
        // in the main and in the cluster), not only the submitted topologies'.
        if (command.confOverrides().isEmpty()) {
            return runWithOptions(jarPath, main);
        }
        String previousOptions = System.setProperty(StormOptions.PROPERTY,
                StormOptions.encode(command.confOverrides()));
        try {
            return runWithOptions(jarPath, main);
        } finally {
            restoreProperty(StormOptions.PROPERTY, previousOptions);
        }
    }

    private int runWithOptions(Path jarPath, Method main) throws InterruptedException {
        ILocalCluster cluster = clusterFactory.get();
        LocalNimbus nimbus = new LocalNimbus(cluster, command.confOverrides());
        GracefulStop stop = new GracefulStop(cluster, KILL_WAIT_SECS, err);
        Thread hook = new Thread(() -> stop.stop(nimbus.submittedTopologies()), "microburst-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        String previousJar = System.setProperty(STORM_JAR_PROPERTY, jarPath.toString());
        // Installed after the cluster exists: Storm's own LocalCluster installs an override of its own when built.
        NimbusClient.LocalOverride override = new NimbusClient.LocalOverride(nimbus);
        // As Storm's local mode does: DRPC spouts and DRPC clients built by the topology's main use this server.
        InProcessDrpc drpc = new InProcessDrpc();
        DRPCClient.LocalOverride drpcOverride = new DRPCClient.LocalOverride(drpc);
        try {
            return runMainThenWait(main, nimbus);
        } finally {
            stop.stop(nimbus.submittedTopologies());
            closeQuietly(drpcOverride);
            closeQuietly(drpc);
            closeQuietly(override);
            restoreProperty(STORM_JAR_PROPERTY, previousJar);
            removeHook(hook);
        }
    }

    private int runMainThenWait(Method main, LocalNimbus nimbus) throws InterruptedException {
        MainLocalClusters own = MainLocalClusters.watch();
        try {
            TopologyJar.runMain(main, command.mainArgs(), LocalRun.class.getClassLoader());
        } catch (TopologyMainFailedException e) {
            err.println("microburst: " + e.getMessage());
            e.getCause().printStackTrace(err);
            return 1;
        }
        if (nimbus.submittedTopologies().isEmpty() && own.madeAny()) {
            if (command.watch()) {
                err.println("microburst: --watch reloads topologies submitted with StormSubmitter; " + command.mainClass()
                        + ".main runs its own LocalCluster, so " + command.jar().getFileName() + " is not watched");
            }
            return waitForOwnClusters(own.open());
        }
        if (nimbus.submittedTopologies().isEmpty()) {
            err.println("microburst: " + command.mainClass() + ".main returned without submitting a topology "
                    + "(through StormSubmitter or a new LocalCluster())");
        } else {
            out.println("microburst: running " + String.join(", ", nimbus.submittedTopologies())
                    + describe(command.duration()));
        }
        // while --watch reloads, the name goes from one version to the next: not a halt
        HaltWatch watch = new HaltWatch(nimbus.cluster(), () -> nimbus.reloading() ? Set.of()
                : nimbus.submittedTopologies());
        Optional<String> halted;
        try (JarWatch reloads = command.watch() ? JarWatch.start(command.jar(), command.mainClass(),
                command.mainArgs(), nimbus, out, err, WATCH_POLL) : null) {
            halted = watch.awaitHaltOrEnd(command.duration());
        }
        if (halted.isPresent()) {
            err.println("microburst: " + halted.get());
            return 1;
        }
        return 0;
    }

    /**
     * After a main that ran its topologies on its own {@code new LocalCluster()}: nothing to do when it closed it
     * before returning; otherwise the run goes on with the topologies that cluster runs, for the duration, and stops
     * them gracefully at the end or on Ctrl-C, as for those submitted through {@code StormSubmitter}.
     */
    private int waitForOwnClusters(Map<ILocalCluster, Set<String>> open) throws InterruptedException {
        Set<String> running = new TreeSet<>();
        open.values().forEach(running::addAll);
        if (running.isEmpty()) {
            out.println("microburst: " + command.mainClass() + ".main ran its topologies on its own LocalCluster and "
                    + "stopped them before it returned");
            return 0;
        }
        out.println("microburst: running " + String.join(", ", running) + " on the LocalCluster that "
                + command.mainClass() + ".main left open" + describe(command.duration()));
        List<Runnable> stops = new ArrayList<>();
        open.forEach((cluster, names) -> {
            GracefulStop stop = new GracefulStop(cluster, KILL_WAIT_SECS, err);
            stops.add(() -> stop.stop(names));
        });
        Thread hook = new Thread(() -> stops.forEach(Runnable::run), "microburst-shutdown-own-clusters");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            for (Map.Entry<ILocalCluster, Set<String>> e : open.entrySet()) {
                if (!e.getValue().isEmpty()) {
                    Optional<String> halted = new HaltWatch(e.getKey(), e::getValue)
                            .awaitHaltOrEnd(command.duration());
                    if (halted.isPresent()) {
                        err.println("microburst: " + halted.get());
                        return 1;
                    }
                    break; // one watch covers the duration; the others are stopped with it
                }
            }
            return 0;
        } finally {
            stops.forEach(Runnable::run);
            removeHook(hook);
        }
    }

    private static String describe(Optional<Duration> duration) {
        return duration.map(d -> " for " + d.toSeconds() + " s").orElse(" until interrupted (Ctrl-C)");
    }

    private TopologyJar openJar() throws UsageException {
        TopologyJar jar;
        try {
            jar = new TopologyJar(command.watch() ? copyOf(command.jar()) : command.jar());
        } catch (IOException e) {
            throw new UsageException(e.getMessage());
        }
        jar.bundlingNote().ifPresent(note -> err.println("microburst: " + note));
        return jar;
    }

    /** A copy of the jar for {@code --watch}, deleted when the process exits. */
    private static Path copyOf(Path jar) throws IOException {
        if (!Files.isRegularFile(jar) || !Files.isReadable(jar)) {
            throw new IOException("not a readable jar file: " + jar);
        }
        Path copy = Files.createTempFile("microburst-watch-", ".jar");
        copy.toFile().deleteOnExit();
        return Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * The jar's own loggers (shown, then kept names), found on a thread of their own while the topology's class loader
     * loads the run and log4j2; none if the jar's entries cannot be read, which the main's lookup then reports.
     */
    private static Future<List<List<String>>> jarLoggers(TopologyJar jar) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                JarLoggers loggers = JarLoggers.of(jar.path(), TopologyJar.commandLineClassPath());
                return List.of(loggers.shown(), loggers.kept());
            } catch (IOException e) {
                return List.of(List.<String>of(), List.<String>of());
            }
        }, task -> {
            Thread thread = new Thread(task, "microburst-jar-loggers");
            thread.setDaemon(true);
            thread.start();
        });
    }

    private static void applyJarLoggers(Future<List<List<String>>> loggers, PrintStream err)
            throws InterruptedException {
        JarLoggers.initLogging();
        try {
            List<List<String>> names = loggers.get();
            new JarLoggers(names.get(0), names.get(1)).apply();
        } catch (ExecutionException e) {
            err.println("microburst: cannot set the levels of the jar's loggers: " + e.getCause());
        }
    }

    private Method findMain(ClassLoader loader) throws UsageException {
        return MainLookup.find(loader, command.mainClass(), command.jar());
    }

    private void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            err.println("microburst: " + e);
        }
    }

    private static void restoreProperty(String name, String previous) {
        if (previous == null) {
            System.clearProperty(name);
        } else {
            System.setProperty(name, previous);
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is already stopping and the hook has run or is running: nothing to remove.
        }
    }
}
