package io.microburst.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.example.release.TickTopology;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive this build made, installed as an operator installs it: unpacked into an empty folder and run
 * with Java on the PATH but no Maven and an empty HOME. The server starts with its defaults from the archive (data/,
 * logs/, conf/storm.yaml), a topology jar is submitted, listed, rebalanced and killed with {@code bin/microburst}, and a
 * topology still running when the server is stopped with SIGTERM (as {@code systemctl stop} does) runs again after the
 * next start. Runs after {@code package} (maven-failsafe-plugin), in well under a minute.
 */
class ReleaseArchiveIT {
    private static final Duration LISTED_TIMEOUT = Duration.ofSeconds(60);
    private static final String TOPOLOGY_PACKAGE = "org.example.release";

    @TempDir
    static Path dir;
    private static Installation installation;

    @BeforeAll
    static void install() throws Exception {
        Path archive = Path.of(System.getProperty("microburst.dist.archive", "target/microburst.tar.gz"));
        installation = Installation.unpack(archive, dir, Path.of(System.getProperty("java.home"), "bin"));
    }

    @AfterAll
    static void stopEverything() {
        if (installation != null) {
            installation.close();
        }
    }

    @Test
    void archiveHoldsAnInstallationWithTheCommandLinesRunTimeClassPathOnly() throws IOException {
        Path home = installation.home();
        assertTrue(Files.isExecutable(home.resolve("bin/microburst")), "bin/microburst is executable");
        for (String file : List.of("conf/storm.yaml", "conf/log4j2.xml", "conf/microburst.service", "LICENSE", "NOTICE",
                "licenses/THIRD-PARTY.txt")) {
            assertTrue(Files.isRegularFile(home.resolve(file)), file);
        }
        assertTrue(Files.readString(home.resolve("conf/log4j2.xml")).contains("name=\"microburst-cli\""),
            "conf/log4j2.xml is the command line's own configuration");
        assertTrue(Files.readString(home.resolve("licenses/THIRD-PARTY.txt")).contains("storm-client"),
            "THIRD-PARTY.txt lists storm-client");
        assertTrue(Files.isDirectory(home.resolve("data")) && Files.isDirectory(home.resolve("logs")), "data/, logs/");
        assertTrue(Files.isSameFile(home.resolve("logs"), home.resolve("data/logs")), "data/logs is logs/");

        List<String> jars;
        try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
            jars = lib.map(p -> p.getFileName().toString()).sorted().toList();
        }
        for (String needed : List.of("microburst-core-", "microburst-server-", "microburst-state-", "microburst-cli-",
                "storm-client-", "picocli-", "rocksdbjni-")) {
            assertTrue(jars.stream().anyMatch(j -> j.startsWith(needed) && j.endsWith(".jar")), needed + " in " + jars);
        }
        for (String unwanted : List.of("microburst-bench", "microburst-jmh", "microburst-it", "jmh-", "junit-",
                "opentest4j", "maven-")) {
            assertFalse(jars.stream().anyMatch(j -> j.startsWith(unwanted)), unwanted + " in " + jars);
        }
        try (Stream<Path> all = Files.walk(home)) {
            List<Path> sources = all.filter(p -> p.toString().endsWith(".java") || p.toString().endsWith("pom.xml"))
                .toList();
            assertEquals(List.of(), sources, "no sources or build files");
        }
    }

    @Test
    void saysInOneLineWhenThereIsNoJava() throws Exception {
        Installation.Result result = installation.run(Map.of("PATH", installation.pathWithoutJava()), "version");
        assertEquals(1, result.exit(), result.toString());
        assertEquals(1, result.stderr().strip().lines().count(), result.stderr());
        assertTrue(result.stderr().contains("no Java found") && result.stderr().contains("Java 17"), result.stderr());
        assertEquals("", result.stdout());
    }

    @Test
    void saysInOneLineWhenJavaIsOlderThan17() throws Exception {
        Path old = Files.createDirectories(dir.resolve("jdk-11/bin"));
        Files.writeString(old.resolveSibling("release"), "JAVA_VERSION=\"11.0.22\"\nOS_NAME=\"Linux\"\n");
        Path java = Files.writeString(old.resolve("java"), "#!/bin/sh\nexit 3\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Installation.Result result = installation.run(Map.of("JAVA_HOME", old.getParent().toString()), "version");
        assertEquals(1, result.exit(), result.toString());
        assertEquals(1, result.stderr().strip().lines().count(), result.stderr());
        assertTrue(result.stderr().contains("is Java 11") && result.stderr().contains("Java 17 or later"),
            result.stderr());
    }

    @Test
    void operatorRunsTheServerDrivesATopologyAndARestartKeepsTheOneStillRunning() throws Exception {
        Path home = installation.home();
        Path jar = TopologyJars.pack(Path.of(System.getProperty("microburst.dist.test.classes", "target/test-classes")),
            TOPOLOGY_PACKAGE, dir.resolve("ticks.jar"));
        String shippedConf = Files.readString(home.resolve("conf/storm.yaml"));

        RunningServer server = RunningServer.start(installation);
        pointClientsAt(server, shippedConf);
        installation.run("submit", jar.toString(), TickTopology.class.getName(), "ticks").ok("submit");
        awaitListed("ticks", true);
        Path stored = home.resolve("data/topologies/ticks");
        assertTrue(Files.isDirectory(stored), "stored in the installation's data/ folder");
        awaitWorkerLogLine(home.resolve("logs/workers-artifacts"));

        installation.run("rebalance", "ticks", "-w", "0", "-e", "count=2").ok("rebalance");
        Await.until("the rebalanced executor counts to be stored", LISTED_TIMEOUT,
            () -> Files.isRegularFile(stored.resolve("executors.json")), () -> list().toString());
        installation.run("kill", "ticks", "-w", "0").ok("kill");
        awaitListed("ticks", false);

        installation.run("submit", jar.toString(), TickTopology.class.getName(), "kept").ok("submit kept");
        awaitListed("kept", true);
        int exit = server.stop();
        assertTrue(exit == 143 || exit == 0, "exit after SIGTERM: " + exit + "; " + server.output());

        RunningServer restarted = RunningServer.start(installation);
        pointClientsAt(restarted, shippedConf);
        awaitListed("kept", true);
        installation.run("kill", "kept", "-w", "0").ok("kill kept");
        awaitListed("kept", false);
        restarted.stop();

        assertFalse(Files.exists(Path.of(installation.environment().get("HOME"), ".m2")), "no Maven repository used");
    }

    /** Configures the clients as an operator would: the server's address in conf/storm.yaml, under what shipped. */
    private static void pointClientsAt(RunningServer server, String shippedConf) throws IOException {
        Files.writeString(installation.home().resolve("conf/storm.yaml"), shippedConf
            + "\nnimbus.seeds: [\"127.0.0.1\"]\nnimbus.thrift.port: " + server.thriftPort() + "\n");
    }

    private static Installation.Result list() throws Exception {
        return installation.run("list").ok("list");
    }

    /** Waits until {@code bin/microburst list} shows the topology, or no longer shows it. */
    private static void awaitListed(String name, boolean listed) throws Exception {
        Installation.Result[] last = new Installation.Result[1];
        Await.until(name + (listed ? " to be listed" : " to be gone from the list"), LISTED_TIMEOUT, () -> {
            last[0] = list();
            return last[0].stdout().lines().anyMatch(line -> line.startsWith(name + " ")
                || line.startsWith(name + "\t")) == listed;
        }, () -> String.valueOf(last[0]));
    }

    /** Waits until the spout's line is in its topology's worker log, under the installation's logs/. */
    private static void awaitWorkerLogLine(Path workers) throws Exception {
        Await.until("the topology's worker log in logs/workers-artifacts", LISTED_TIMEOUT,
            () -> workerLogs(workers).stream().anyMatch(log -> contains(log, TickTopology.OPENED)),
            () -> workerLogs(workers).toString());
    }

    private static List<Path> workerLogs(Path workers) throws IOException {
        if (!Files.isDirectory(workers)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(workers)) {
            return files.filter(f -> f.getFileName().toString().equals("worker.log")).toList();
        }
    }

    private static boolean contains(Path file, String text) {
        try {
            return Files.readString(file).contains(text);
        } catch (IOException e) {
            return false;
        }
    }
}
