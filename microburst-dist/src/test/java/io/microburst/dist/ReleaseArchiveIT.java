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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive this build made, installed as an operator installs it: unpacked into an empty folder and run
 * with Java on the PATH but no Maven and an empty HOME. The server starts with its defaults from the archive (data/,
 * logs/, conf/storm.yaml); storm-starter's jar is submitted with {@code bin/microburst submit} (ExclamationTopology,
 * and WordCountTopology with its Python splitter when the machine has python3), listed, rebalanced and killed, and the
 * topology still running when the server is stopped with SIGTERM (as {@code systemctl stop} does) runs again after
 * the next start. {@code version} names the archive's version. Runs after {@code package} (maven-failsafe-plugin), in
 * about a minute.
 */
class ReleaseArchiveIT {
    private static final String ARCHIVE_PREFIX = "microburst-";
    private static final String ARCHIVE_SUFFIX = ".tar.gz";
    private static final Duration LISTED_TIMEOUT = Duration.ofSeconds(180);
    /** A debug line of ExclamationTopology's last bolt emitting. */
    private static final String EXCLAIMED = "componentId=exclaim2";
    /** A debug line of WordCountTopology's counting bolt emitting, after the Python splitter. */
    private static final String COUNTED = "componentId=count";

    @TempDir
    static Path dir;
    private static Path archive;
    private static Installation installation;

    @BeforeAll
    static void install() throws Exception {
        archive = Path.of(System.getProperty("microburst.dist.archive", "target/microburst.tar.gz"));
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
    void versionAndDashDashVersionNameTheVersionInTheArchivesName() throws Exception {
        String file = archive.getFileName().toString();
        assertTrue(file.startsWith(ARCHIVE_PREFIX) && file.endsWith(ARCHIVE_SUFFIX), file);
        String version = file.substring(ARCHIVE_PREFIX.length(), file.length() - ARCHIVE_SUFFIX.length());
        assertEquals(ARCHIVE_PREFIX + version, installation.home().getFileName().toString(),
            "the archive's folder is named as the archive");
        Installation.Result printed = installation.run("version").ok("version");
        assertEquals(List.of("microburst " + version), printed.stdout().lines()
            .filter(line -> line.startsWith("microburst ")).toList(), printed.stdout());
        assertEquals(printed.stdout(), installation.run("--version").ok("--version").stdout(),
            "--version prints what version prints");
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
    void operatorRunsStormStarterOnTheServerAndARestartKeepsTheTopologyStillRunning() throws Exception {
        Path home = installation.home();
        Path jar = StormStarterJar.build(Path.of(System.getProperty("microburst.dist.storm.starter",
            "target/storm-2.8.3/examples/storm-starter")), home.resolve("lib"), dir.resolve("storm-starter"));
        String shippedConf = Files.readString(home.resolve("conf/storm.yaml"));
        WorkerLogs logs = new WorkerLogs(home.resolve("logs/workers-artifacts"));

        RunningServer server = RunningServer.start(installation);
        pointClientsAt(server, shippedConf);
        submit(jar, StormStarterJar.EXCLAMATION, "exclaim");
        assertTrue(Files.isDirectory(home.resolve("data/topologies/exclaim")), "stored in the installation's data/");
        // storm-starter's examples run with topology.debug: each emit is a line of the worker log
        logs.awaitMore("exclaim", EXCLAIMED, 0);
        boolean multiLang = installation.hasPython();
        if (multiLang) {
            submit(jar, StormStarterJar.WORD_COUNT, "words");
            logs.awaitMore("words", COUNTED, 0);
        } else {
            System.out.println("no python3 on this machine: WordCountTopology, whose splitter is a Python "
                + "subprocess, is left out; ExclamationTopology alone is run");
        }

        rebalance("exclaim", "exclaim1=2");
        logs.awaitMore("exclaim", EXCLAIMED, logs.count("exclaim", EXCLAIMED));
        if (multiLang) {
            rebalance("words", "split=4");
            logs.awaitMore("words", COUNTED, logs.count("words", COUNTED));
            installation.run("kill", "words", "-w", "0").ok("kill words");
            awaitListed("words", false);
        }

        int exit = server.stop();
        assertTrue(exit == 143 || exit == 0, "exit after SIGTERM: " + exit + "; " + server.output());
        int beforeRestart = logs.count("exclaim", EXCLAIMED);
        RunningServer restarted = RunningServer.start(installation);
        pointClientsAt(restarted, shippedConf);
        awaitListed("exclaim", true);
        Installation.Result listed = list();
        assertTrue(listed.stdout().lines().anyMatch(line -> line.startsWith("exclaim ") && line.contains(" ACTIVE ")),
            "running again after the restart: " + listed);
        logs.awaitMore("exclaim", EXCLAIMED, beforeRestart);
        installation.run("kill", "exclaim", "-w", "0").ok("kill exclaim");
        awaitListed("exclaim", false);
        restarted.stop();

        assertFalse(Files.exists(Path.of(installation.environment().get("HOME"), ".m2")), "no Maven repository used");
    }

    /** Submits {@code main} of the jar as {@code storm jar} does, under {@code name}, and waits until it is listed. */
    private static void submit(Path jar, String main, String name) throws Exception {
        Installation.Result submitted = installation.run("submit", jar.toString(), main, name).ok("submit " + name);
        assertTrue(submitted.stdout().contains("Submitted topology: " + name), submitted.toString());
        awaitListed(name, true);
    }

    /** Rebalances at once with {@code executors} (COMPONENT=COUNT); the new counts are stored. */
    private static void rebalance(String name, String executors) throws Exception {
        installation.run("rebalance", name, "-w", "0", "-e", executors).ok("rebalance " + name);
        Path stored = installation.home().resolve("data/topologies").resolve(name).resolve("executors.json");
        Await.until("the rebalanced executor counts of " + name + " to be stored", LISTED_TIMEOUT,
            () -> Files.isRegularFile(stored), () -> list().toString());
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
}
