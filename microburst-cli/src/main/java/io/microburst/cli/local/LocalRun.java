package io.microburst.cli.local;

import io.microburst.cli.Command;
import io.microburst.cli.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.storm.ILocalCluster;
import org.apache.storm.utils.NimbusClient;

/**
 * {@code microburst local}: runs a topology jar's main against an in-process cluster, keeps the cluster running for
 * the requested duration (or until the JVM is asked to stop), then stops every topology gracefully.
 *
 * <p>Runs on the calling thread; registers a shutdown hook for Ctrl-C and removes it when it returns normally. Uses
 * process-wide state that Storm's submitter reads (the {@code storm.jar} system property and the
 * {@link NimbusClient.LocalOverride}), so only one run may be active in a JVM at a time.
 */
public final class LocalRun {
    /** Storm's {@code KillOptions.wait_secs} used at the end of a run. */
    public static final int KILL_WAIT_SECS = 3;
    private static final String STORM_JAR_PROPERTY = "storm.jar";

    private final Command.Local command;
    private final Supplier<? extends ILocalCluster> clusterFactory;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * @param clusterFactory creates the cluster; called once, after the jar and its main class were found
     */
    public LocalRun(Command.Local command, Supplier<? extends ILocalCluster> clusterFactory, PrintStream out,
                    PrintStream err) {
        this.command = command;
        this.clusterFactory = clusterFactory;
        this.out = out;
        this.err = err;
    }

    /**
     * Runs to the end.
     *
     * @return the process exit status: 0 when the run ended as planned, 1 when the topology's main failed
     * @throws UsageException if the jar cannot be read or has no usable main class
     */
    public int run() throws UsageException, InterruptedException {
        TopologyJar jar = openJar();
        try {
            return runWithCluster(jar, findMain(jar));
        } finally {
            closeQuietly(jar);
        }
    }

    private int runWithCluster(TopologyJar jar, Method main) throws InterruptedException {
        ILocalCluster cluster = clusterFactory.get();
        LocalNimbus nimbus = new LocalNimbus(cluster, command.confOverrides());
        GracefulStop stop = new GracefulStop(cluster, KILL_WAIT_SECS, err);
        Thread hook = new Thread(() -> stop.stop(nimbus.submittedTopologies()), "microburst-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        String previousJar = System.setProperty(STORM_JAR_PROPERTY, jar.path().toString());
        // Installed after the cluster exists: Storm's own LocalCluster installs an override of its own when built.
        NimbusClient.LocalOverride override = new NimbusClient.LocalOverride(nimbus);
        try {
            return runMainThenWait(jar, main, nimbus);
        } finally {
            stop.stop(nimbus.submittedTopologies());
            closeQuietly(override);
            restoreProperty(previousJar);
            removeHook(hook);
        }
    }

    private int runMainThenWait(TopologyJar jar, Method main, LocalNimbus nimbus) throws InterruptedException {
        try {
            jar.runMain(main, command.mainArgs());
        } catch (TopologyMainFailedException e) {
            err.println("microburst: " + e.getMessage());
            e.getCause().printStackTrace(err);
            return 1;
        }
        if (nimbus.submittedTopologies().isEmpty()) {
            err.println("microburst: " + command.mainClass() + ".main returned without submitting a topology");
        } else {
            out.println("microburst: running " + String.join(", ", nimbus.submittedTopologies())
                    + describe(command.duration()));
        }
        waitFor(command.duration());
        return 0;
    }

    private static String describe(Optional<Duration> duration) {
        return duration.map(d -> " for " + d.toSeconds() + " s").orElse(" until interrupted (Ctrl-C)");
    }

    /** Sleeps for the duration, or forever; Ctrl-C then ends the JVM through the shutdown hook. */
    private static void waitFor(Optional<Duration> duration) throws InterruptedException {
        if (duration.isPresent()) {
            Thread.sleep(duration.get().toMillis());
        } else {
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    private TopologyJar openJar() throws UsageException {
        try {
            return new TopologyJar(command.jar());
        } catch (IOException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private Method findMain(TopologyJar jar) throws UsageException {
        try {
            return jar.findMain(command.mainClass());
        } catch (ClassNotFoundException e) {
            throw new UsageException("class " + command.mainClass() + " not found in " + command.jar());
        } catch (NoSuchMethodException e) {
            throw new UsageException(command.mainClass() + " has no public static void main(String[])");
        } catch (LinkageError e) {
            throw new UsageException("cannot load " + command.mainClass() + ": " + e);
        }
    }

    private void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            err.println("microburst: " + e);
        }
    }

    private static void restoreProperty(String previousJar) {
        if (previousJar == null) {
            System.clearProperty(STORM_JAR_PROPERTY);
        } else {
            System.setProperty(STORM_JAR_PROPERTY, previousJar);
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
