package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.ClusterFactory;
import io.microburst.cli.Main;
import io.microburst.cli.testsupport.JavaProcess;
import io.microburst.cli.testsupport.StormLocalClusterOnLoopback;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code microburst local} end to end: a topology jar built here from source, run by {@link Main} in a fresh JVM,
 * exactly as a user would run it. The bolt's record file shows what reached the topology.
 */
class LocalCommandEndToEndTest {
    private static final Duration PROCESS_TIMEOUT = Duration.ofSeconds(90);
    /** How a JVM that ran its shutdown hooks after SIGTERM exits: 128 + 15. */
    private static final int SIGTERM_EXIT = 143;
    private static final List<String> EXPECTED_RECORD = List.of(
            "conf recording.kept=from-main",
            "conf recording.number=42",
            "conf recording.overridden=from-cli",
            "main recording.number=42",
            "word alpha", "word beta", "word delta", "word gamma");

    @TempDir
    static Path sharedDir;
    private static Path jar;

    @BeforeAll
    static void buildTopologyJar() throws IOException {
        jar = TopologyJarBuilder.build(RecordingTopologySource.sources(), sharedDir);
    }

    /** The product path: the jar runs on Microburst for a few seconds, long enough on a loaded machine. */
    @Test
    void runsAnUnchangedJarOnMicroburst(@TempDir Path dir) throws Exception {
        assertRunRecordsEverything(dir, 5);
    }

    /**
     * The same jar on Apache Storm's own LocalCluster, run until terminated: proves the command line independently of
     * the engine, and that a stop request (as Ctrl-C) kills the topology through the shutdown hook. Storm's workers
     * deserialise spouts and bolts with the application class loader, not the submitting thread's context class
     * loader, so (as with Storm's own {@code storm local}) the jar also goes on the class path here.
     */
    @Test
    void runsTheSameJarOnStormLocalClusterUntilTerminated(@TempDir Path dir) throws Exception {
        Path record = dir.resolve("record.txt");
        try (JavaProcess process = JavaProcess.start(dir,
                List.of("-D" + ClusterFactory.CLUSTER_CLASS_PROPERTY + "=" + StormLocalClusterOnLoopback.class.getName()),
                List.of(jar), Main.class.getName(), List.of("local", "--conf", "recording.overridden=from-cli",
                        "--conf", "recording.number=42", jar.toString(), RecordingTopologySource.MAIN_CLASS,
                        record.toString()))) {
            awaitRecord(record, process);
            process.terminate();
            int exit = process.waitFor(PROCESS_TIMEOUT);

            assertEquals(SIGTERM_EXIT, exit, process.output());
            assertTrue(process.stdout().contains("running recording until interrupted"), process.output());
            assertTrue(process.output().contains("killing topology recording"), process.output());
        }
    }

    /**
     * A jar built with storm-client in compile scope (its defaults.yaml and classes inside): storm-client would refuse
     * the second defaults.yaml; the run says in one line that the bundled copy is not used and what to change, and
     * runs the topology on the command line's storm-client.
     */
    @Test
    void aJarBundlingStormClientRunsWithOneLineSayingWhatToChange(@TempDir Path dir) throws Exception {
        Path bundling = TopologyJarBuilder.build(RecordingTopologySource.sources(), Map.of(
                "defaults.yaml", resource("defaults.yaml"),
                "org/apache/storm/StormSubmitter.class", resource("org/apache/storm/StormSubmitter.class")),
                Files.createDirectories(dir.resolve("build")));
        Path record = dir.resolve("record.txt");
        try (JavaProcess process = JavaProcess.start(dir, List.of(), List.of(), Main.class.getName(), List.of(
                "local", "--duration", "2", bundling.toString(), RecordingTopologySource.MAIN_CLASS,
                record.toString()))) {
            int exit = process.waitFor(PROCESS_TIMEOUT);

            assertEquals(0, exit, process.output());
            assertTrue(process.stderr().contains("microburst: " + bundling.getFileName() + " bundles its own storm-client "
                    + "(defaults.yaml, org/apache/storm/StormSubmitter.class); it is not used, Microburst's "
                    + "storm-client runs the topology. Storm refuses such a jar: build it with storm-client in "
                    + "provided scope\n"), process.output());
            assertFalse(process.output().contains("multiple defaults.yaml"), process.output());
            assertTrue(sortedLines(record).contains("word delta"), process.output());
        }
    }

    private static byte[] resource(String name) throws IOException {
        try (java.io.InputStream in = LocalCommandEndToEndTest.class.getClassLoader().getResourceAsStream(name)) {
            assertNotNull(in, name);
            return in.readAllBytes();
        }
    }

    @Test
    void failingMainExitsNonZeroAndReportsTheError(@TempDir Path dir) throws Exception {
        Path record = dir.resolve("record.txt");
        try (JavaProcess process = JavaProcess.start(dir, List.of(), List.of(), Main.class.getName(), List.of(
                "local", "--duration", "1", jar.toString(), RecordingTopologySource.MAIN_CLASS,
                record.toString(), "fail"))) {
            int exit = process.waitFor(PROCESS_TIMEOUT);

            assertEquals(1, exit, process.output());
            assertTrue(process.output().contains("main was asked to fail"), process.output());
            assertTrue(Files.notExists(record), "nothing was submitted");
        }
    }

    /**
     * A topology that halts (here: every tuple throws and the task failure limit is 1) ends the run at once with
     * status 1 and the reason, instead of idling out the duration and exiting 0. The user's INFO log line shows.
     */
    @Test
    void haltedTopologyExitsNonZeroWithTheReason(@TempDir Path dir) throws Exception {
        Path record = dir.resolve("record.txt");
        try (JavaProcess process = JavaProcess.start(dir, List.of(), List.of(), Main.class.getName(), List.of(
                "local", "--duration", "600", "-c", "microburst.task.failure.limit=1", "-c",
                "topology.metrics.reporters=[{\"class\": \"org.apache.storm.metrics2.reporters.ConsoleStormReporter\", "
                        + "\"report.period\": 600}]",
                jar.toString(), RecordingTopologySource.MAIN_CLASS, record.toString(), "throw"))) {
            int exit = process.waitFor(PROCESS_TIMEOUT);

            assertEquals(1, exit, process.output());
            assertTrue(process.output().contains("topology recording stopped by itself"), process.output());
            assertTrue(process.output().contains("record bolt was asked to throw"), process.output());
            assertTrue(process.output().contains("user main submitted recording"), process.output());
        }
    }

    /**
     * A thread the topology started and never stopped outlives the run: it is interrupted before the run ends, and the
     * topology's classes stay loadable while it runs, instead of its next class lookup failing (a
     * NoClassDefFoundError in the user's log).
     */
    @Test
    void aLeftoverUserThreadIsInterruptedBeforeItsClassesGoAway(@TempDir Path dir) throws Exception {
        Path leftoverJar = TopologyJarBuilder.build(LeftoverThreadTopologySource.sources(), dir.resolve("build"));
        Path verdict = dir.resolve("verdict.txt");
        try (JavaProcess process = JavaProcess.start(dir, List.of(), List.of(), Main.class.getName(), List.of(
                "local", "--duration", "1", leftoverJar.toString(), LeftoverThreadTopologySource.MAIN_CLASS,
                verdict.toString()))) {
            int exit = process.waitFor(PROCESS_TIMEOUT);

            assertEquals(0, exit, process.output());
            assertTrue(Files.exists(verdict), "the leftover thread wrote no verdict\n" + process.output());
            assertEquals("interrupted", Files.readString(verdict, StandardCharsets.UTF_8), process.output());
        }
    }

    /**
     * A shutdown hook the topology registered runs when the process exits, after the run, and can still load the jar's
     * classes (Hadoop's file system cache registers one: storm-hdfs's bolts, Flux's simple_hdfs.yaml), as under
     * {@code storm local}; the JVM options are the {@code microburst} launcher's.
     */
    @Test
    void aShutdownHookOfTheTopologyStillFindsItsClassesAtExit(@TempDir Path dir) throws Exception {
        Path hookJar = TopologyJarBuilder.build(ShutdownHookTopologySource.sources(), dir.resolve("build"));
        Path verdict = dir.resolve("verdict.txt");
        try (JavaProcess process = JavaProcess.start(dir, List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED"),
                List.of(), Main.class.getName(), List.of("local", "--duration", "1", hookJar.toString(),
                ShutdownHookTopologySource.MAIN_CLASS, verdict.toString()))) {
            int exit = process.waitFor(PROCESS_TIMEOUT);

            assertEquals(0, exit, process.output());
            assertTrue(Files.exists(verdict), "the shutdown hook wrote no verdict\n" + process.output());
            assertEquals("ran", Files.readString(verdict, StandardCharsets.UTF_8), process.output());
            assertFalse(process.output().contains("NoClassDefFoundError"), process.output());
        }
    }

    /**
     * With the shipped log4j2.xml, the INFO lines of the jar's own classes show whatever their package (Storm's own
     * examples live under org.apache.storm), as under {@code storm local}; a line under the logger of a storm-client
     * class does not, even when the jar bundles that class as a shaded jar does.
     */
    @Test
    void theJarsOwnInfoLinesShowUnderOrgApacheStormButStormClientsDoNot(@TempDir Path dir) throws Exception {
        Path loggingJar = TopologyJarBuilder.build(StormPackageLoggingTopologySource.sources(),
                StormPackageLoggingTopologySource.shadedStormClientClass(), dir.resolve("build"));
        try (JavaProcess process = JavaProcess.start(dir, List.of(), List.of(), Main.class.getName(), List.of(
                "local", loggingJar.toString(), StormPackageLoggingTopologySource.MAIN_CLASS))) {
            awaitOutput(process, StormPackageLoggingTopologySource.BOLT_LINE);
            process.terminate();
            process.waitFor(PROCESS_TIMEOUT);

            String output = process.output();
            assertTrue(output.contains("INFO  JarOwnHelper - " + StormPackageLoggingTopologySource.HELPER_LINE), output);
            assertFalse(output.contains(StormPackageLoggingTopologySource.STORM_CLIENT_LINE), output);
        }
    }

    private static void assertRunRecordsEverything(Path dir, int seconds) throws Exception {
        Path record = dir.resolve("record.txt");
        try (JavaProcess process = JavaProcess.start(dir, List.of(), List.of(), Main.class.getName(), List.of(
                "local", "--duration", Integer.toString(seconds), "--conf", "recording.overridden=from-cli",
                "--conf", "recording.number=42", jar.toString(), RecordingTopologySource.MAIN_CLASS,
                record.toString()))) {
            int exit = process.waitFor(PROCESS_TIMEOUT);

            assertEquals(0, exit, process.output());
            assertTrue(Files.exists(record), "the bolt never ran\n" + process.output());
            assertEquals(EXPECTED_RECORD, sortedLines(record), process.output());
            assertTrue(process.stdout().contains("running " + RecordingTopologySource.TOPOLOGY_NAME + " for " + seconds + " s"),
                    process.output());
            assertNotEquals(-1, process.output().indexOf("killing topology recording"), process.output());
        }
    }

    /** Waits until the record holds everything expected (the topology did its work), or fails. */
    private static void awaitRecord(Path record, JavaProcess process) throws Exception {
        long deadline = System.nanoTime() + PROCESS_TIMEOUT.toNanos();
        while (!Files.exists(record) || !sortedLines(record).equals(EXPECTED_RECORD)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the topology did not record everything in time\n"
                        + (Files.exists(record) ? sortedLines(record) : "no record") + "\n" + process.output());
            }
            Thread.sleep(50);
        }
    }

    /** Waits until the process printed {@code text}, or fails (also when the process ends first). */
    private static void awaitOutput(JavaProcess process, String text) throws Exception {
        long deadline = System.nanoTime() + PROCESS_TIMEOUT.toNanos();
        while (!process.output().contains(text)) {
            if (System.nanoTime() > deadline || !process.isAlive() && !process.output().contains(text)) {
                throw new AssertionError("the process did not print '" + text + "'\n" + process.output());
            }
            Thread.sleep(50);
        }
    }

    private static List<String> sortedLines(Path file) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
        Collections.sort(lines);
        return lines;
    }
}
