package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.Main;
import io.microburst.cli.testsupport.JavaProcess;
import io.microburst.cli.testsupport.TestClassPath;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code microburst local} runs a main that makes its own {@code new LocalCluster()} and submits to it, as under
 * {@code storm local}: the command's class path has microburst-localcluster, whose {@code LocalCluster} runs the
 * topology on Microburst. The child JVM gets this module's test class path without storm-server (a test dependency
 * here, for the tests that compare with Storm's own cluster), as the launcher's {@code target/lib} has it.
 */
class LocalClusterMainEndToEndTest {
    private static final Duration PROCESS_TIMEOUT = Duration.ofSeconds(90);

    @Test
    void aMainWithItsOwnLocalClusterRunsItsTopologyOnMicroburst(@TempDir Path dir) throws Exception {
        Path jar = TopologyJarBuilder.build(LocalClusterMainSource.sources(), dir.resolve("build"));
        Path record = dir.resolve("record.txt");
        try (JavaProcess process = JavaProcess.startWithClassPath(dir, List.of(), classPathWithoutStormServer(),
                Main.class.getName(), List.of("local", "--duration", "1", jar.toString(),
                        LocalClusterMainSource.MAIN_CLASS, record.toString()))) {
            int exit = process.waitFor(PROCESS_TIMEOUT);

            assertEquals(0, exit, process.output());
            assertFalse(process.output().contains("NoClassDefFoundError"), process.output());
            assertEquals(List.of("alpha", "beta", "delta", "gamma"),
                    Files.readAllLines(record, StandardCharsets.UTF_8).stream().sorted().toList(), process.output());
            for (String word : List.of("alpha", "beta", "gamma", "delta")) {
                assertTrue(process.stdout().contains("print bolt got " + word), process.output());
            }
            assertTrue(process.stdout().contains("main closed its LocalCluster"), process.output());
            assertTrue(process.stdout().contains("microburst: " + LocalClusterMainSource.MAIN_CLASS + ".main ran its "
                    + "topologies on its own LocalCluster and stopped them before it returned"), process.output());
            assertFalse(process.output().contains("without submitting"), process.output());
        }
    }

    @Test
    void aLocalClusterTheMainLeavesOpenKeepsRunningForTheDurationThenStops(@TempDir Path dir) throws Exception {
        Path jar = TopologyJarBuilder.build(LocalClusterMainSource.sources(), dir.resolve("build"));
        Path record = dir.resolve("record.txt");
        try (JavaProcess process = JavaProcess.startWithClassPath(dir, List.of(), classPathWithoutStormServer(),
                Main.class.getName(), List.of("local", "--duration", "3", jar.toString(),
                        LocalClusterMainSource.MAIN_CLASS, record.toString(), "open"))) {
            int exit = process.waitFor(PROCESS_TIMEOUT);

            assertEquals(0, exit, process.output());
            assertTrue(process.stdout().contains("main left its LocalCluster open"), process.output());
            assertTrue(process.stdout().contains("microburst: running local-cluster-words on the LocalCluster that "
                    + LocalClusterMainSource.MAIN_CLASS + ".main left open for 3 s"), process.output());
            assertTrue(process.stderr().contains("killing topology local-cluster-words"), process.output());
            assertEquals(List.of("alpha", "beta", "delta", "gamma"),
                    Files.readAllLines(record, StandardCharsets.UTF_8).stream().sorted().toList(), process.output());
        }
    }

    @Test
    void aMainCompiledAgainstStormServerPollsGetNimbusUntilItsTopologyEnds(@TempDir Path dir) throws Exception {
        Path jar = TopologyJarBuilder.build(PollingMainSource.sources(), Map.of(), dir.resolve("build"),
                classPathWithStormServerFirst());
        try (JavaProcess process = JavaProcess.startWithClassPath(dir, List.of(), classPathWithoutStormServer(),
                Main.class.getName(), List.of("local", jar.toString(), PollingMainSource.MAIN_CLASS, "100"))) {
            int exit = process.waitFor(PROCESS_TIMEOUT);

            assertEquals(0, exit, process.output());
            assertFalse(process.output().contains("NoSuchMethodError"), process.output());
            assertTrue(process.stdout().contains("main saw no topology left; the bolt counted 100"), process.output());
        }
    }

    /** The test class path with storm-server's jar first, so that a topology compiles as against storm-server. */
    private static String classPathWithStormServerFirst() {
        List<String> entries = Arrays.asList(TestClassPath.get().split(File.pathSeparator));
        List<String> ordered = new ArrayList<>();
        entries.stream().filter(e -> Path.of(e).getFileName().toString().startsWith("storm-server-"))
                .forEach(ordered::add);
        assertEquals(1, ordered.size(), "storm-server's jar once on the test class path: " + entries);
        entries.stream().filter(e -> !ordered.contains(e)).forEach(ordered::add);
        return String.join(File.pathSeparator, ordered);
    }

    /** The test class path minus storm-server's jar, so that {@code org.apache.storm.LocalCluster} is ours. */
    private static String classPathWithoutStormServer() {
        List<String> entries = Arrays.asList(TestClassPath.get().split(File.pathSeparator));
        List<String> kept = entries.stream()
                .filter(e -> !Path.of(e).getFileName().toString().startsWith("storm-server-"))
                .collect(Collectors.toList());
        assertEquals(entries.size() - 1, kept.size(), "storm-server's jar once on the test class path: " + entries);
        assertTrue(kept.stream().anyMatch(e -> e.contains("microburst-localcluster")),
                "microburst-localcluster on the class path: " + kept);
        return String.join(File.pathSeparator, kept);
    }
}
