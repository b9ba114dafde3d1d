package io.microburst.scaleout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import example.scaleout.BlobFlow;
import example.scaleout.ParityTopology;
import io.microburst.stormcluster.StormCluster;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.utils.NimbusClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same topology jar, with no Microburst code in it, on {@code microburst local} and on a real Apache Storm 2.8.3
 * cluster with two workers (ZooKeeper, Nimbus, a Supervisor and two worker JVMs, so tuples cross processes through
 * Storm's serialization and are tracked by Storm's acker executors): both runs write the same outputs, and those are
 * the outputs computed from the input.
 */
class ScaleOutParityTest {
    private static final String MAIN = ParityTopology.class.getName();
    private static final Duration CLUSTER_START = Duration.ofMinutes(3);
    private static final Duration RUN_LIMIT = Duration.ofMinutes(3);

    @TempDir
    static Path tmp;

    private static StormCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = StormCluster.start(stormHome(), tmp.resolve("storm-cluster"), CLUSTER_START);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.stop();
        }
    }

    @Test
    void sameOutputsOnMicroburstAndOnAStormClusterWithTwoWorkers() throws Exception {
        Path jar = topologyJar(tmp.resolve("parity.jar"));
        ParityOutputs expected = ParityOutputs.expected();

        Path microburstOut = tmp.resolve("out-microburst");
        Process microburst = start(tmp.resolve("microburst.log"), javaCommand(
            List.of("-cp", System.getProperty("microburst.classpath"), "io.microburst.cli.Main", "local",
                jar.toString(), MAIN, microburstOut.toString())));
        ParityOutputs onMicroburst;
        try {
            onMicroburst = awaitComplete(microburstOut, expected, microburst, tmp.resolve("microburst.log"));
        } finally {
            // SIGTERM: `microburst local` kills its topologies gracefully and exits.
            microburst.destroy();
            assertTrue(microburst.waitFor(60, TimeUnit.SECONDS), "microburst local did not exit on SIGTERM");
        }

        Path stormOut = tmp.resolve("out-storm");
        Path home = cluster.stormHome();
        // What `storm jar parity.jar MAIN args` does: the main runs on Storm's client class path with storm.jar set.
        Process submit = start(tmp.resolve("storm-submit.log"), javaCommand(List.of(
            "-Dstorm.jar=" + jar, "-Dstorm.conf.file=" + cluster.stormYaml(),
            "-Dlog4j.configurationFile=" + home.resolve("log4j2/client.xml"),
            "-cp", home.resolve("lib-worker") + File.separator + "*" + File.pathSeparator + jar,
            MAIN, stormOut.toString(), "scaleout-parity")));
        assertTrue(submit.waitFor(2, TimeUnit.MINUTES), "submission did not return");
        assertEquals(0, submit.exitValue(), () -> "submission failed: " + read(tmp.resolve("storm-submit.log")));
        ParityOutputs onStorm;
        try (NimbusClient nimbus = NimbusClient.getConfiguredClient(cluster.clientConf())) {
            onStorm = awaitComplete(stormOut, expected, null, cluster.dataDir().resolve("logs"));
            String id = nimbus.getClient().getTopologySummaryByName("scaleout-parity").get_id();
            TopologyInfo info = nimbus.getClient().getTopologyInfo(id);
            Set<Integer> workerPorts = new HashSet<>();
            Set<String> ackers = new HashSet<>();
            for (ExecutorSummary executor : info.get_executors()) {
                workerPorts.add(executor.get_port());
                if (executor.get_component_id().equals("__acker")) {
                    ackers.add(executor.get_host() + ":" + executor.get_port());
                }
            }
            assertEquals(2, workerPorts.size(), "executors spread over two worker processes: " + workerPorts);
            assertFalse(ackers.isEmpty(), "Storm's acker executors ran");
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            nimbus.getClient().killTopologyWithOpts("scaleout-parity", now);
        }

        assertEquals(expected, onMicroburst, "Microburst's outputs against the ones computed from the input");
        assertEquals(onMicroburst, onStorm, "the Storm cluster's outputs against Microburst's");
    }

    /**
     * The blob store as a Storm user meets it ({@link BlobFlow}: errors for missing keys, create, list, a submit refused
     * for a missing key, the blob read by a running bolt before and after an update, a delete refused while in use,
     * delete after the kill), on {@code microburst local} and against the Storm cluster's Nimbus and supervisor: every
     * step reads the same. Both check for new blob versions every second (the cluster's storm.yaml sets
     * {@code supervisor.localizer.update.blob.interval.secs}).
     */
    @Test
    void sameBlobStoreFlowOnMicroburstAndOnAStormCluster() throws Exception {
        Path jar = topologyJar(tmp.resolve("blobflow.jar"));
        String main = BlobFlow.class.getName();
        Path microburstLog = tmp.resolve("blobflow-microburst.log");
        Process microburst = start(microburstLog, javaCommand(
            List.of("-cp", System.getProperty("microburst.classpath"), "io.microburst.cli.Main", "local",
                "--duration", "1", "--conf", "supervisor.localizer.update.blob.interval.secs=1",
                jar.toString(), main, tmp.resolve("blobflow-seen-microburst").toString(), "blobflow")));
        awaitExit(microburst, microburstLog);

        Path home = cluster.stormHome();
        Path stormLog = tmp.resolve("blobflow-storm.log");
        Process storm = start(stormLog, javaCommand(List.of(
            "-Dstorm.jar=" + jar, "-Dstorm.conf.file=" + cluster.stormYaml(),
            "-Dlog4j.configurationFile=" + home.resolve("log4j2/client.xml"),
            "-cp", home.resolve("lib-worker") + File.separator + "*" + File.pathSeparator + jar,
            main, tmp.resolve("blobflow-seen-storm").toString(), "blobflow")));
        awaitExit(storm, stormLog);

        List<String> onStorm = blobFlowSteps(stormLog);
        List<String> onMicroburst = blobFlowSteps(microburstLog);
        assertTrue(onStorm.contains("BLOBFLOW done"), "the flow did not finish on the Storm cluster: " + read(stormLog));
        for (String expected : List.of("BLOBFLOW the bolt read the first version: true",
            "BLOBFLOW the bolt read the second version: true", "BLOBFLOW after the kill: deleted")) {
            assertTrue(onStorm.contains(expected), expected + " on the Storm cluster:\n" + String.join("\n", onStorm));
        }
        assertEquals(onStorm, onMicroburst, "the blob flow on microburst local (see " + microburstLog + ")");
        System.out.println("The blob flow on both:\n" + String.join("\n", onStorm));
    }

    private static void awaitExit(Process process, Path log) throws InterruptedException {
        if (!process.waitFor(RUN_LIMIT.toMillis() * 2, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            fail("the blob flow did not end; see " + log + ": " + read(log));
        }
    }

    private static List<String> blobFlowSteps(Path log) throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.startsWith("BLOBFLOW ")).toList();
    }

    /** Waits until the outputs under {@code dir} are complete; fails if {@code process} exits first or time runs out. */
    private static ParityOutputs awaitComplete(Path dir, ParityOutputs expected, Process process, Path logs)
        throws InterruptedException {
        long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
        while (true) {
            ParityOutputs outputs = ParityOutputs.read(dir);
            if (outputs.complete(expected)) {
                return outputs;
            }
            if (process != null && !process.isAlive()) {
                fail("the run exited before its outputs were complete; see " + logs + ": " + read(logs));
            }
            if (System.nanoTime() - deadline > 0) {
                fail("outputs under " + dir + " not complete after " + RUN_LIMIT + " (see " + logs + "): "
                    + outputs.wordCountLines() + " word-count lines, " + outputs.acked().size() + " acked, "
                    + outputs.windows().size() + " windows, " + outputs.ticked().size() + " ticked");
            }
            Thread.sleep(100);
        }
    }

    /** A jar of the example package's classes alone: nothing of Microburst or Storm in it. */
    static Path topologyJar(Path jar) throws IOException {
        Path classes = Path.of(ParityTopology.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        Path pkg = classes.resolve("example/scaleout");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
             Stream<Path> entries = Files.walk(pkg)) {
            for (Path p : entries.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(p).toString().replace(File.separatorChar, '/')));
                Files.copy(p, out);
                out.closeEntry();
            }
        }
        return jar;
    }

    private static List<String> javaCommand(List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.addAll(args);
        return command;
    }

    private static Process start(Path log, List<String> command) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static String read(Path file) {
        try {
            if (Files.isDirectory(file)) {
                return "(directory)";
            }
            String text = Files.readString(file);
            return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static Path stormHome() {
        String home = System.getProperty("microburst.storm.home");
        if (home == null) {
            throw new IllegalStateException("microburst.storm.home is not set; run through Maven");
        }
        return Path.of(home);
    }
}
