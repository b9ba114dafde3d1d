package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.Main;
import io.microburst.cli.testsupport.JavaProcess;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code microburst local --watch} in a fresh JVM, with the counting topology ({@link UpgradeCountingSource}) built
 * three times from source, its bolt's variant built in: the jar overwritten in place by something that is not a jar
 * and by a version whose bolt's state type changed is refused in one line each, the first version counting on; then
 * overwritten by a version with a changed bolt, which takes over with the count carried in the RocksDB state.
 * {@code -Dmicroburst.watch.repeat=20} runs it 20 times.
 */
@Timeout(3600)
class LocalWatchEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void aChangedJarReplacesTheRunningVersionAndABrokenOneDoesNot() throws Exception {
        Path first = TopologyJarBuilder.build(UpgradeCountingSource.sources("w1"),
            Files.createDirectories(dir.resolve("build-1")));
        Path text = TopologyJarBuilder.build(UpgradeCountingSource.sources("text"),
            Files.createDirectories(dir.resolve("build-text")));
        Path second = TopologyJarBuilder.build(UpgradeCountingSource.sources("w2"),
            Files.createDirectories(dir.resolve("build-2")));
        for (int i = 0; i < Integer.getInteger("microburst.watch.repeat", 1); i++) {
            runOnce(first, text, second, Files.createDirectories(dir.resolve("run-" + i)));
        }
    }

    private static void runOnce(Path first, Path text, Path second, Path run) throws Exception {
        Path jar = Files.copy(first, run.resolve("app.jar"));
        Path record = run.resolve("record.txt");
        try (JavaProcess process = JavaProcess.start(run, List.of(), List.of(), Main.class.getName(), List.of("local",
            "--watch", "--duration", "300", jar.toString(), UpgradeCountingSource.MAIN_CLASS, record.toString(),
            run.resolve("state").toString()))) {
            await(process, () -> lines(record).contains("w1 a=" + UpgradeCountingSource.WORDS));

            Files.writeString(jar, "not a jar", StandardCharsets.UTF_8);
            await(process, () -> stderr(process).contains("app.jar changed but cannot be read as a jar"));
            Files.copy(text, jar, StandardCopyOption.REPLACE_EXISTING);
            await(process, () -> stderr(process).contains("app.jar changed but was not loaded: Upgrade of topology "
                + "'counting' refused: component 'count'"));
            assertTrue(stderr(process).contains("the running version goes on"), process.output());

            Files.copy(second, jar, StandardCopyOption.REPLACE_EXISTING);
            await(process, () -> lines(record).contains("w2 a=" + 2 * UpgradeCountingSource.WORDS));
            List<String> lines = lines(record);
            int firstNew = lines.indexOf(lines.stream().filter(l -> l.startsWith("w2 ")).findFirst().orElseThrow());
            assertEquals("w1 a=" + UpgradeCountingSource.WORDS, lines.get(firstNew - 1), lines.toString());
            assertEquals("w2 a=" + (UpgradeCountingSource.WORDS + 1), lines.get(firstNew),
                "the new version's bolt goes on from the old one's count: its state was carried");
            await(process, () -> process.stdout().contains("microburst: reloaded app.jar: counting (upgraded to "
                + "version 2"));
            process.terminate();
            assertEquals(143, process.waitFor(WAIT), process.output()); // SIGTERM, as Ctrl-C or kill
        }
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    private static void await(JavaProcess process, Check check) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!check.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + WAIT + "\n" + process.output());
            }
            Thread.sleep(20);
        }
    }

    private static List<String> lines(Path record) throws Exception {
        return Files.exists(record) ? Files.readAllLines(record) : List.of();
    }

    private static String stderr(JavaProcess process) throws Exception {
        return process.stderr();
    }
}
