package io.microburst.stormcluster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Starts a cluster daemon as its own JVM from the Storm home ({@code lib/} on its class path, {@code log4j2/cluster.xml}
 * for its logs), records its pid in the state, and waits for it to be ready. Every command line names the data
 * directory, which is how {@link ClusterProcesses} knows the process (and Storm's workers) as the cluster's.
 *
 * <p>Not thread-safe: used by the one caller that starts the cluster.
 */
final class DaemonLauncher {
    private final Path dataDir;
    private final ClusterState state;
    private final ClusterProcesses processes;

    DaemonLauncher(Path dataDir, ClusterState state, ClusterProcesses processes) {
        this.dataDir = dataDir;
        this.state = state;
        this.processes = processes;
    }

    /** Starts {@code daemon}, its output appended to {@code logs/<daemon>.out}, and saves its pid. */
    void launch(String daemon, String mainClass, List<String> jvmOptions, List<String> args) throws IOException {
        Path home = state.stormHome();
        Path logs = dataDir.resolve("logs");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:+UseSerialGC");
        command.add("-Dstorm.home=" + home);
        command.add("-Dstorm.log.dir=" + logs);
        command.add("-Dlogfile.name=" + daemon + ".log");
        command.add("-Dlog4j.configurationFile=" + home.resolve("log4j2/cluster.xml"));
        command.add("-Dstorm.conf.file=" + ClusterConfigFiles.stormYaml(dataDir));
        // Marks the process as this cluster's (Storm also passes it on to every worker).
        command.add("-Dstorm.local.dir=" + dataDir.resolve("storm-local"));
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(home.resolve("lib") + "/*");
        command.add(mainClass);
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command)
            .directory(dataDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve(daemon + ".out").toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // Workers run with $JAVA_HOME/bin/java and take the conf directory on their class path.
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("STORM_CONF_DIR", dataDir.resolve("conf").toString());
        Process process = builder.start();
        state.setPid(daemon, process.pid());
    }

    /**
     * Waits until {@code ready}, polling every 200 ms; throws, naming the daemon's log, if it exits first or
     * {@code deadline} (a {@link System#nanoTime()} value) passes.
     */
    void await(String daemon, long deadline, BooleanSupplier ready) throws InterruptedException {
        while (!ready.getAsBoolean()) {
            if (processes.daemon(daemon).isEmpty()) {
                throw new IllegalStateException("Storm cluster: " + daemon + " exited during start; see "
                    + dataDir.resolve("logs/" + daemon + ".out") + " and " + daemon + ".log");
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("Storm cluster: " + daemon + " not ready in time; see "
                    + dataDir.resolve("logs/" + daemon + ".log"));
            }
            Thread.sleep(200);
        }
    }
}
