package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.Main;
import io.microburst.cli.testsupport.JavaProcess;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code microburst server} as users run it: the server in its own JVM, an unchanged topology jar submitted from a
 * second JVM by its main's {@code StormSubmitter} (as {@code storm jar} runs it: {@code storm.jar} and
 * {@code storm.options} with {@code nimbus.seeds}), then driven by storm-core 2.8.3's command classes, each in a JVM of
 * its own as the {@code storm} script starts them, and by {@code microburst}'s own verbs. The server is then killed with
 * SIGKILL and started again on the same folder: the topology comes back in its last status. Every process is stopped
 * at the end, whatever happened.
 */
class ServerEndToEndTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final Pattern LISTENING = Pattern.compile("Nimbus Thrift on 127\\.0\\.0\\.1:(\\d+)");

    @TempDir
    Path dir;
    private final List<JavaProcess> processes = new ArrayList<>();
    private final AtomicInteger runs = new AtomicInteger();

    @AfterEach
    void stopEverything() {
        processes.forEach(JavaProcess::close);
    }

    @Test
    void stormClientsAndCommandsDriveATopologyThatSurvivesSigkill() throws Exception {
        Path jar = TopologyJarBuilder.build(RecordingTopologySource.sources(), Files.createDirectories(dir.resolve("build")));
        Path data = dir.resolve("data");
        Path record = dir.resolve("record.txt");

        JavaProcess server = startServer(data);
        int port = awaitPort(server);
        String options = stormOptions(port);

        // storm jar: the user's main, unchanged, submits through StormSubmitter to nimbus.seeds.
        JavaProcess submit = start(List.of("-Dstorm.jar=" + jar, "-Dstorm.options=" + options), List.of(jar),
            RecordingTopologySource.MAIN_CLASS, List.of(record.toString()));
        assertEquals(0, submit.waitFor(TIMEOUT), submit.output());
        awaitRecorded(record, server);

        assertTrue(storm(options, "ListTopologies").matches("(?s).*recording\\s+ACTIVE.*"), "listed active");
        storm(options, "Deactivate", "recording");
        assertTrue(storm(options, "ListTopologies").matches("(?s).*recording\\s+INACTIVE.*"), "listed inactive");
        storm(options, "Activate", "recording");
        assertTrue(microburst(port, "list").matches("(?s).*recording\\s+ACTIVE.*"), "microburst list");
        storm(options, "Rebalance", "recording", "-w", "0", "-e", "record=1");
        microburst(port, "deactivate", "recording");

        // SIGKILL, then the same folder: the topology is back, still inactive.
        server.close();
        JavaProcess restarted = startServer(data);
        int newPort = awaitPort(restarted);
        String afterRestart = storm(stormOptions(newPort), "ListTopologies");
        assertTrue(afterRestart.matches("(?s).*recording\\s+INACTIVE.*"), afterRestart);

        storm(stormOptions(newPort), "KillTopology", "recording", "-w", "0");
        awaitOutput(() -> microburst(newPort, "list"), text -> text.contains("No topologies running."));

        // microburst's own submit (as storm jar), monitor and kill.
        Path second = dir.resolve("second.txt");
        String submitted = microburst(newPort, "submit", jar.toString(), RecordingTopologySource.MAIN_CLASS,
            second.toString());
        assertTrue(submitted.startsWith("Submitted topology: recording\n  id:   recording-"), submitted);
        awaitRecorded(second, restarted);
        String monitored = microburst(newPort, "monitor", "recording", "-m", "words", "-i", "1", "--samples", "1");
        assertTrue(monitored.matches("(?s).*\nrecording\twords\t1\tdefault\t0\t\\d+\t.*"), monitored);
        assertTrue(microburst(newPort, "kill", "recording", "--wait", "0").contains("Killed topology: recording"));
    }

    private JavaProcess startServer(Path data) throws IOException {
        return start(List.of(), List.of(), Main.class.getName(), List.of("server", "--port", "0", "--ui-port", "0", "--dir", data.toString()));
    }

    private static int awaitPort(JavaProcess server) throws Exception {
        String out = awaitOutput(server::stdout, text -> LISTENING.matcher(text).find() || !server.isAlive(),
            server);
        Matcher matcher = LISTENING.matcher(out);
        assertTrue(matcher.find(), server.output());
        return Integer.parseInt(matcher.group(1));
    }

    /** Storm's script passes -c values URL-encoded in storm.options. */
    private static String stormOptions(int port) {
        return URLEncoder.encode("nimbus.seeds=[\"127.0.0.1\"]", StandardCharsets.UTF_8) + ","
            + URLEncoder.encode("nimbus.thrift.port=" + port, StandardCharsets.UTF_8);
    }

    /** Runs {@code org.apache.storm.command.NAME} as the storm script does; returns its stdout, asserting exit 0. */
    private String storm(String options, String command, String... args) throws Exception {
        JavaProcess process = start(List.of("-Dstorm.options=" + options), List.of(), "org.apache.storm.command." + command,
            List.of(args));
        assertEquals(0, process.waitFor(TIMEOUT), command + "\n" + process.output());
        return process.stdout();
    }

    private String microburst(int port, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(args[0], "-c", "nimbus.seeds=[\"127.0.0.1\"]", "-c",
            "nimbus.thrift.port=" + port));
        all.addAll(List.of(args).subList(1, args.length));
        JavaProcess process = start(List.of(), List.of(), Main.class.getName(), all);
        assertEquals(0, process.waitFor(TIMEOUT), String.join(" ", args) + "\n" + process.output());
        return process.stdout();
    }

    private JavaProcess start(List<String> jvm, List<Path> classPath, String main, List<String> args) throws IOException {
        Path workDir = Files.createDirectories(dir.resolve("run-" + runs.incrementAndGet()));
        JavaProcess process = JavaProcess.start(workDir, jvm, classPath, main, args);
        processes.add(process);
        return process;
    }

    private static void awaitRecorded(Path record, JavaProcess server) throws Exception {
        awaitOutput(() -> Files.exists(record) ? Files.readString(record) : "", text -> text.contains("word delta"), server);
    }

    private interface Text {
        String get() throws Exception;
    }

    private static String awaitOutput(Text source, Predicate<String> done) throws Exception {
        return awaitOutput(source, done, null);
    }

    private static String awaitOutput(Text source, Predicate<String> done, JavaProcess context) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        String text = source.get();
        while (!done.test(text)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not seen in time: " + text + (context == null ? "" : "\n" + context.output()));
            }
            Thread.sleep(50);
            text = source.get();
        }
        return text;
    }
}
