package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.Main;
import io.microburst.cli.testsupport.JavaProcess;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code microburst local} runs a topology that selects Microburst's RocksDB state provider by name
 * ({@code topology.state.provider}) while its jar does not hold it: the provider comes from the command line's own class
 * path, which is why microburst-cli depends on microburst-state at run time.
 */
class LocalDurableStateEndToEndTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @Test
    void aTopologyNamingTheRocksDbProviderGetsItsState(@TempDir Path dir) throws Exception {
        Path jar = TopologyJarBuilder.build(DurableStateTopologySource.sources(), dir.resolve("build"));
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            assertTrue(zip.stream().noneMatch(e -> e.getName().startsWith("io/microburst/")),
                "the jar holds only the topology");
        }
        Path record = dir.resolve("record.txt");
        Path state = dir.resolve("state");
        try (JavaProcess process = JavaProcess.start(dir, List.of(), List.of(), Main.class.getName(), List.of("local",
                "--duration", "600", jar.toString(), DurableStateTopologySource.MAIN_CLASS, record.toString(),
                state.toString()))) {
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!lines(record).contains("count alpha 1")) {
                assertTrue(System.nanoTime() < deadline && process.isAlive(),
                    "the topology did not record its state in time: " + lines(record) + "\n" + process.output());
                Thread.sleep(50);
            }
            assertEquals("state io.microburst.state.RocksDbKeyValueState", lines(record).get(0), process.output());
            assertTrue(Files.exists(state.resolve("CURRENT")), "a RocksDB store in " + state);
            assertFalse(process.output().contains("ClassNotFoundException"), process.output());
        }
    }

    private static List<String> lines(Path record) throws IOException {
        return Files.exists(record) ? Files.readAllLines(record, StandardCharsets.UTF_8) : List.of();
    }
}
