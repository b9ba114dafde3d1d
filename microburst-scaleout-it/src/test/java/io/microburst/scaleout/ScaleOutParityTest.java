package io.microburst.scaleout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import example.scaleout.BlobFlow;
import example.scaleout.DrpcTopologies;
import example.scaleout.ParityTopology;
import io.microburst.cli.Main;
import io.microburst.server.BoundTransportPlugin;
import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import io.microburst.stormcluster.StormCluster;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.apache.storm.Config;
import org.apache.storm.command.Blobstore;
import org.apache.storm.daemon.drpc.DRPC;
import org.apache.storm.daemon.drpc.DRPCThrift;
import org.apache.storm.generated.DRPCExecutionException;
import org.apache.storm.generated.DistributedRPC;
import org.apache.storm.generated.DistributedRPCInvocations;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.security.auth.ThriftConnectionType;
import org.apache.storm.security.auth.ThriftServer;
import org.apache.storm.utils.DRPCClient;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;
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

    /**
     * {@code microburst blobstore} against a microburst server, and against the Storm cluster's Nimbus, prints what
     * Storm's own {@code storm blobstore} (storm-core's {@code Blobstore}, started as the script starts it) logs against
     * that Nimbus, step by step (blob versions, which are times, masked), with the same exit statuses.
     */
    @Test
    void blobstoreCommandsPrintTheSameAsStormsOnBothClusters() throws Exception {
        Path v1 = Files.writeString(tmp.resolve("cli-v1.txt"), "first version");
        Path v2 = Files.writeString(tmp.resolve("cli-v2.txt"), "second version");
        String key = "cli-words.txt";
        List<List<String>> steps = List.of(
            List.of("create", "-f", v1.toString(), "-a", "o::rwa", key),
            List.of("list", key),
            List.of("cat", key),
            List.of("update", "-f", v2.toString(), key),
            List.of("cat", key),
            List.of("set-acl", "-s", "u:alice:rwa,o::r", key),
            List.of("list", key, "cli-absent"),
            List.of("cat", "cli-absent"),
            List.of("delete", key),
            List.of("list", key));

        List<String> storm = new ArrayList<>();
        for (List<String> step : steps) {
            storm.add(stormBlobstore(step));
        }
        List<String> microburstOnStorm = new ArrayList<>();
        for (List<String> step : steps) {
            microburstOnStorm.add(microburstBlobstore(step, cluster.nimbusPort()));
        }
        List<String> microburstOnServer = new ArrayList<>();
        try (MicroburstServer server = MicroburstServer.start(Map.of(ServerConfig.DIR, tmp.resolve("cli-server")
                .toString(), Config.NIMBUS_THRIFT_PORT, 0, ServerConfig.UI_PORT, 0))) {
            for (List<String> step : steps) {
                microburstOnServer.add(microburstBlobstore(step, server.thriftPort()));
            }
        }
        assertEquals("exit 0\ncli-words.txt V [o::rwa]\n", storm.get(1), "Storm's listing: " + storm);
        assertEquals(storm, microburstOnStorm, "microburst blobstore against the Storm cluster");
        assertEquals(storm, microburstOnServer, "microburst blobstore against a microburst server");
        System.out.println("storm blobstore, step by step, as all three printed it:\n" + String.join("", storm));
    }

    /** Storm's blobstore command in a JVM of its own; its messages, exit status first, versions masked. */
    private static String stormBlobstore(List<String> args) throws Exception {
        Path log4j = tmp.resolve("commands-log4j2.xml");
        if (!Files.exists(log4j)) {
            // The command's own messages, bare, on stdout; nothing else.
            Files.writeString(log4j, """
                <Configuration status="warn">
                  <Appenders><Console name="out" target="SYSTEM_OUT"><PatternLayout pattern="%m%n"/></Console></Appenders>
                  <Loggers>
                    <Logger name="org.apache.storm.command" level="info" additivity="false"><AppenderRef ref="out"/></Logger>
                    <Root level="off"/>
                  </Loggers>
                </Configuration>
                """);
        }
        Path home = cluster.stormHome();
        String classPath = home.resolve("lib") + File.separator + "*" + File.pathSeparator + jarOf(Blobstore.class)
            + File.pathSeparator + jarOf(org.apache.commons.cli.Options.class);
        List<String> command = new ArrayList<>(List.of("-Dstorm.conf.file=" + cluster.stormYaml(),
            "-Dlog4j.configurationFile=" + log4j, "-cp", classPath, Blobstore.class.getName()));
        command.addAll(args);
        Path out = tmp.resolve("storm-blobstore.out");
        Process process = new ProcessBuilder(javaCommand(command)).redirectOutput(out.toFile())
            .redirectError(tmp.resolve("storm-blobstore.err").toFile()).start();
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), "storm blobstore " + args + " did not end");
        return "exit " + process.exitValue() + "\n" + maskVersions(Files.readString(out));
    }

    /** microburst blobstore in this JVM, as its main runs it; stdout then stderr's messages, exit status first. */
    private static String microburstBlobstore(List<String> args, int port) {
        List<String> all = new ArrayList<>(List.of("blobstore", args.get(0), "-c", "nimbus.seeds=[\"127.0.0.1\"]",
            "-c", "nimbus.thrift.port=" + port));
        all.addAll(args.subList(1, args.size()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        // A failed command's own explanation ("microburst: ...") has no counterpart in Storm's log: Storm's is a stack
        // trace on stderr. Reported keys ("KEY NOT FOUND") are messages, as in Storm's log.
        String messages = err.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.startsWith("microburst: "))
            .map(l -> l + "\n").reduce("", String::concat);
        return "exit " + status + "\n" + maskVersions(out.toString(StandardCharsets.UTF_8) + messages);
    }

    private static String maskVersions(String text) {
        return text.replaceAll("(?m)^(\\S+) \\d+ \\[", "$1 V [");
    }

    private static String jarOf(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
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


    /**
     * DRPC as a Storm user meets it on a cluster: the same jar ({@link DrpcTopologies}: LinearDRPCTopologyBuilder and
     * Trident's newDRPCStream, no LocalDRPC) submitted with StormSubmitter to the Storm cluster, whose workers fetch
     * from Storm's own DRPC handler (storm-server's {@code DRPC} and {@code DRPCThrift} on the calls and invocations
     * ports in this JVM, as Storm's DRPC daemon serves them), and to a {@code microburst server --drpc}: storm-client's
     * {@code DRPCClient} gets the same answers from both, and the same error type for a function nobody serves.
     */
    @Test
    void drpcAnswersTheSameFromAStormClusterAndFromAMicroburstServer() throws Exception {
        Path jar = topologyJar(tmp.resolve("drpc.jar"));
        Map<String, Object> drpcConf = new HashMap<>(Utils.readStormConfig());
        drpcConf.put(Config.DRPC_PORT, 0);
        drpcConf.put(Config.DRPC_INVOCATIONS_PORT, 0);
        drpcConf.put(Config.DRPC_THRIFT_TRANSPORT_PLUGIN, BoundTransportPlugin.class.getName());
        drpcConf.put(Config.DRPC_INVOCATIONS_THRIFT_TRANSPORT_PLUGIN, BoundTransportPlugin.class.getName());
        drpcConf.put(ServerConfig.DRPC_REQUEST_TIMEOUT_SECS, DRPC_TIMEOUT_SECS);
        Path home = cluster.stormHome();
        List<String> onStorm;
        try (DRPC drpc = new DRPC(new StormMetricsRegistry(), drpcConf)) {
            DRPCThrift handler = new DRPCThrift(drpc);
            ThriftServer calls = new ThriftServer(drpcConf, new DistributedRPC.Processor<>(handler),
                ThriftConnectionType.DRPC);
            ThriftServer invocations = new ThriftServer(drpcConf, new DistributedRPCInvocations.Processor<>(handler),
                ThriftConnectionType.DRPC_INVOCATIONS);
            try {
                for (ThriftServer server : List.of(calls, invocations)) {
                    Thread serving = new Thread(server::serve, "storm-drpc-" + server.getPort());
                    serving.setDaemon(true);
                    serving.start();
                }
                Process submit = start(tmp.resolve("drpc-storm-submit.log"), javaCommand(List.of(
                    "-Dstorm.jar=" + jar, "-Dstorm.conf.file=" + cluster.stormYaml(),
                    "-Dlog4j.configurationFile=" + home.resolve("log4j2/client.xml"),
                    "-cp", home.resolve("lib-worker") + File.separator + "*" + File.pathSeparator + jar,
                    DrpcTopologies.class.getName(), "drpc", Integer.toString(invocations.getPort()))));
                assertTrue(submit.waitFor(2, TimeUnit.MINUTES), "submission did not return");
                assertEquals(0, submit.exitValue(), () -> "submission failed: " + read(tmp.resolve("drpc-storm-submit.log")));
                onStorm = drpcCalls(calls.getPort());
                try (NimbusClient nimbus = NimbusClient.getConfiguredClient(cluster.clientConf())) {
                    KillOptions now = new KillOptions();
                    now.set_wait_secs(0);
                    nimbus.getClient().killTopologyWithOpts("drpc-linear", now);
                    nimbus.getClient().killTopologyWithOpts("drpc-trident", now);
                }
            } finally {
                calls.stop();
                invocations.stop();
            }
        }

        List<String> onMicroburst;
        Map<String, Object> serverConf = new HashMap<>();
        serverConf.put(ServerConfig.DIR, tmp.resolve("drpc-server").toString());
        serverConf.put(Config.NIMBUS_THRIFT_PORT, 0);
        serverConf.put(ServerConfig.UI_PORT, 0);
        serverConf.put(ServerConfig.DRPC, true);
        serverConf.put(Config.DRPC_PORT, 0);
        serverConf.put(Config.DRPC_INVOCATIONS_PORT, 0);
        serverConf.put(ServerConfig.DRPC_HTTP_PORT, -1);
        serverConf.put(ServerConfig.DRPC_REQUEST_TIMEOUT_SECS, DRPC_TIMEOUT_SECS);
        try (MicroburstServer server = MicroburstServer.start(serverConf)) {
            String options = URLEncoder.encode("nimbus.seeds=[\"127.0.0.1\"]", StandardCharsets.UTF_8) + ","
                + URLEncoder.encode("nimbus.thrift.port=" + server.thriftPort(), StandardCharsets.UTF_8);
            Process submit = start(tmp.resolve("drpc-microburst-submit.log"), javaCommand(List.of(
                "-Dstorm.jar=" + jar, "-Dstorm.options=" + options,
                "-Dlog4j.configurationFile=" + home.resolve("log4j2/client.xml"),
                "-cp", home.resolve("lib-worker") + File.separator + "*" + File.pathSeparator + jar,
                DrpcTopologies.class.getName(), "drpc")));
            assertTrue(submit.waitFor(2, TimeUnit.MINUTES), "submission did not return");
            assertEquals(0, submit.exitValue(), () -> "submission failed: " + read(tmp.resolve("drpc-microburst-submit.log")));
            onMicroburst = drpcCalls(server.drpcPort());
        }

        assertEquals(List.of("reverse \"storm\" => \"mrots\"", "reverse \"\" => \"\"",
            "words \"one two three\" => \"[[\"one\"],[\"two\"],[\"three\"]]\"", "words \"x\" => \"[[\"x\"]]\"",
            "nobody \"x\" => SERVER_TIMEOUT"), onStorm, "Storm's answers");
        assertEquals(onStorm, onMicroburst, "the microburst server's answers against Storm's");
    }

    private static final int DRPC_TIMEOUT_SECS = 10;

    /** The test's DRPC calls against {@code port}, each as {@code FUNCTION "ARG" => "RESULT"} or the error type. */
    private static List<String> drpcCalls(int port) throws Exception {
        List<String> answers = new ArrayList<>();
        try (DRPCClient drpc = new DRPCClient(Utils.readStormConfig(), "127.0.0.1", port)) {
            // the topologies are starting: each function's first call is repeated until it is answered
            for (String function : List.of("reverse", "words")) {
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
                while (true) {
                    try {
                        drpc.execute(function, "warm up");
                        break;
                    } catch (DRPCExecutionException e) {
                        if (System.nanoTime() - deadline > 0) {
                            fail(function + " was never answered on port " + port + ": " + e);
                        }
                    }
                }
            }
            for (String[] call : List.of(new String[] {"reverse", "storm"}, new String[] {"reverse", ""},
                new String[] {"words", "one two three"}, new String[] {"words", "x"}, new String[] {"nobody", "x"})) {
                String answer;
                try {
                    answer = "\"" + drpc.execute(call[0], call[1]) + "\"";
                } catch (DRPCExecutionException e) {
                    answer = String.valueOf(e.get_type());
                }
                answers.add(call[0] + " \"" + call[1] + "\" => " + answer);
            }
        }
        return answers;
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
