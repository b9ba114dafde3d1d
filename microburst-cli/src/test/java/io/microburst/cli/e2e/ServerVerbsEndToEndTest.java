package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.Main;
import io.microburst.cli.testsupport.JavaProcess;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.storm.Config;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verbs as a new user meets them against a {@code microburst server} in this JVM, next to storm-core 2.8.3's own
 * command classes run against the same server with the same configuration (as the {@code storm} script passes it,
 * {@code storm.options}): {@code submit} says what it submitted and where its page is, {@code list} prints Storm's
 * table, {@code monitor} Storm's columns, and a server that is not running is one line naming its address.
 */
@Timeout(180)
class ServerVerbsEndToEndTest {
    private static final long DEADLINE_NANOS = 60_000_000_000L;

    @TempDir
    static Path dir;
    private static MicroburstServer server;
    private static Path jar;

    @BeforeAll
    static void startServer() throws Exception {
        server = MicroburstServer.start(Map.of(ServerConfig.DIR, dir.resolve("data").toString(),
            Config.NIMBUS_THRIFT_PORT, 0, ServerConfig.UI_PORT, 0));
        jar = TopologyJarBuilder.build(RecordingTopologySource.sources(), Files.createDirectories(dir.resolve("build")));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    record Run(int status, String out, String err) {
    }

    private static Run microburst(String verb, String... args) {
        List<String> all = new ArrayList<>(List.of(verb, "-c", "nimbus.seeds=[\"127.0.0.1\"]", "-c",
            "nimbus.thrift.port=" + server.thriftPort()));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private interface StormMain {
        void run() throws Exception;
    }

    /** A storm-core command's main, configured as the storm script configures it, its stdout captured. */
    private static String storm(StormMain main) throws Exception {
        PrintStream stdout = System.out;
        String previous = System.setProperty("storm.options", stormOptions());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            main.run();
        } finally {
            System.setOut(stdout);
            restore("storm.options", previous);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Storm's script passes -c values URL-encoded in storm.options. */
    private static String stormOptions() {
        return URLEncoder.encode("nimbus.seeds=[\"127.0.0.1\"]", StandardCharsets.UTF_8) + ","
            + URLEncoder.encode("nimbus.thrift.port=" + server.thriftPort(), StandardCharsets.UTF_8);
    }

    private static void restore(String property, String previous) {
        if (previous == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, previous);
        }
    }

    @Test
    void submitListMonitorAndKillPrintWhatStormsCommandsPrint() throws Exception {
        Path record = Files.createTempFile(dir, "record", ".txt"); // the bolt appends; one file per run
        Files.delete(record);
        String stormJar = System.getProperty("storm.jar");
        String stormOptions = System.getProperty("storm.options");
        Run submitted;
        try {
            submitted = microburst("submit", jar.toString(), RecordingTopologySource.MAIN_CLASS, record.toString());
        } finally {
            restore("storm.jar", stormJar);
            restore("storm.options", stormOptions);
        }
        assertEquals(Main.OK, submitted.status(), submitted.err());
        String id = Utils.getTopologyId(RecordingTopologySource.TOPOLOGY_NAME, server.nimbus());
        assertEquals("Submitted topology: recording\n  id:   " + id + "\n  page: http://" + server.host() + ":"
            + server.uiPort() + "/topology.html?id=" + URLEncoder.encode(id, StandardCharsets.UTF_8) + "\n",
            submitted.out());

        // Storm's table, read a moment apart: only the uptime may differ
        await(() -> uptimeless(storm(() -> org.apache.storm.command.ListTopologies.main(new String[0]))),
            ours -> ours.equals(uptimeless(microburst("list").out())) && ours.contains("recording "));

        await(() -> Files.exists(record) ? Files.readString(record) : "", text -> text.contains("word delta"));
        String[] stormsMonitor = stormMonitorFirstLines("-m", "words", "-i", "1", "recording");
        Run monitored = microburst("monitor", "-m", "words", "-i", "1", "--samples", "1", "recording");
        assertEquals(Main.OK, monitored.status(), monitored.err());
        String[] ours = monitored.out().split("\n");
        assertEquals(stormsMonitor[0], ours[0], "the header");
        String[] stormsFields = stormsMonitor[1].split("\t");
        String[] ourFields = ours[1].split("\t");
        assertEquals(stormsFields.length, ourFields.length, ours[1]);
        for (int i = 0; i < 5; i++) { // topology, component, parallelism, stream, time-diff 0 (the counts move on)
            assertEquals(stormsFields[i], ourFields[i], "column " + i + ": " + ours[1]);
        }

        Run nosuch = microburst("kill", "nosuch");
        assertEquals(Main.FAILED, nosuch.status());
        assertEquals("microburst: kill: no topology named 'nosuch' is running; 'microburst list' shows the running"
            + " ones\n", nosuch.err());
        assertEquals("Killed topology: recording\n", microburst("kill", "-w", "0", "recording").out());
        await(() -> microburst("list").out(), text -> text.equals("No topologies running.\n"));
        assertEquals("No topologies running.\n", storm(() -> org.apache.storm.command.ListTopologies.main(new String[0])));
    }

    /** Storm's monitor loops until interrupted: its header and first line, printed at once. */
    private static String[] stormMonitorFirstLines(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AtomicReference<Exception> failure = new AtomicReference<>();
        String previous = System.setProperty("storm.options", stormOptions());
        PrintStream stdout = System.out;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            Thread monitor = new Thread(() -> {
                try {
                    org.apache.storm.command.Monitor.main(args);
                } catch (Exception e) {
                    failure.set(e);
                }
            }, "storm-monitor");
            monitor.start();
            long deadline = System.nanoTime() + DEADLINE_NANOS;
            while (monitor.isAlive() && System.nanoTime() < deadline
                && out.toString(StandardCharsets.UTF_8).split("\n", -1).length < 3) {
                Thread.sleep(10);
            }
            monitor.interrupt(); // Storm's poller ends the loop on an interrupt
            monitor.join();
        } finally {
            System.setOut(stdout);
            restore("storm.options", previous);
        }
        assertEquals(null, failure.get());
        return out.toString(StandardCharsets.UTF_8).split("\n");
    }

    @Test
    void aServerThatIsNotRunningIsOneLineNamingItsAddress() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        Path work = Files.createDirectories(dir.resolve("no-server"));
        try (JavaProcess list = JavaProcess.start(work, List.of(), List.of(), Main.class.getName(),
                List.of("list", "-c", "nimbus.seeds=[\"127.0.0.1\"]", "-c", "nimbus.thrift.port=" + port, "-c",
                    "storm.nimbus.retry.times=5", "-c", "storm.nimbus.retry.interval.millis=60000", "-c",
                    "storm.nimbus.retry.intervalceiling.millis=60000"))) {
            // fails at once: storm-client's NimbusClient would retry for five minutes with these settings
            assertEquals(Main.FAILED, list.waitFor(Duration.ofSeconds(60)), list.output());
            // the JVM's own warnings (WARNING: ...) are not the command's
            String ours = list.stderr().lines().filter(line -> !line.startsWith("WARNING: "))
                .collect(java.util.stream.Collectors.joining("\n", "", "\n"));
            assertEquals("microburst: cannot reach Nimbus at 127.0.0.1:" + port + ": is 'microburst server' running?"
                + " (nimbus.seeds, nimbus.thrift.port)\n", ours, "one line, no stack trace");
            assertEquals("", list.stdout());
        }
    }

    private static String uptimeless(String table) {
        return table.replaceAll("(?m)^(\\S+ +\\S+ +\\S+ +\\S+ +)\\d+ +", "$1UPTIME ");
    }

    private interface Text {
        String get() throws Exception;
    }

    private static String await(Text source, java.util.function.Predicate<String> done) throws Exception {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        String text = source.get();
        while (!done.test(text)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not seen in time: " + text);
            }
            Thread.sleep(50);
            text = source.get();
        }
        return text;
    }
}
