package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.microburst.cli.Main;
import io.microburst.cli.testsupport.JavaProcess;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code microburst local} runs a jar that relies on what Storm's local mode gives a jar: an in-process DRPC server,
 * storm-client loading and deserializing the jar's classes by name, and the jar's {@code resources/} folder as the
 * working directory of multi-lang subprocesses. See {@link StormIdiomsTopologySource}.
 */
class StormIdiomsEndToEndTest {
    private static final Duration PROCESS_TIMEOUT = Duration.ofSeconds(90);

    @Test
    void drpcStateProviderInTheJarMultiLangInStormsLayoutAndConfigurableTopologyWork(@TempDir Path dir) throws Exception {
        assumeTrue(python3(), "python3 is not installed (Debian: apt-get install python3)");
        Path jar = TopologyJarBuilder.build(StormIdiomsTopologySource.sources(), StormIdiomsTopologySource.resources(),
                dir.resolve("build"));
        Path record = dir.resolve("record.txt");
        Path yaml = Files.writeString(dir.resolve("topology.yaml"), "record.greeting: from-yaml\n");
        try (JavaProcess process = JavaProcess.start(dir, List.of(), List.of(), Main.class.getName(), List.of(
                "local", "--duration", "4", jar.toString(), StormIdiomsTopologySource.MAIN_CLASS, "-conf",
                yaml.toString(), record.toString()))) {
            int exit = process.waitFor(PROCESS_TIMEOUT);

            assertEquals(0, exit, process.output());
            List<String> lines = Files.exists(record) ? Files.readAllLines(record, StandardCharsets.UTF_8) : List.of();
            assertEquals(new TreeSet<>(List.of("conf from-yaml", "drpc hello!", "shell ALPHA", "shell BETA",
                    "state initialized", "state provider")), new TreeSet<>(lines), process.output());
        }
    }

    private static boolean python3() {
        try {
            Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }
}
