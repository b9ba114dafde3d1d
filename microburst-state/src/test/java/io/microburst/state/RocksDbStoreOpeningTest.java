package io.microburst.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening a state directory: shared within a process, refused to a second process, corruption reported by name. */
class RocksDbStoreOpeningTest {
    @TempDir
    Path dir;

    @AfterEach
    void closeStore() {
        RocksDbStore.close(dir);
    }

    @Test
    void oneStorePerDirectoryInAProcess() {
        assertSame(RocksDbStore.open(dir), RocksDbStore.open(dir.resolve(".")));
    }

    @Test
    void aSecondProcessGetsAClearError() throws Exception {
        RocksDbStore.open(dir);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process other = new ProcessBuilder(List.of(java, "-cp", classPath, OpenStoreMain.class.getName(),
                dir.toString())).redirectErrorStream(true).start();
        String output = new String(other.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(other.waitFor(60, TimeUnit.SECONDS), output);

        assertEquals(3, other.exitValue(), output);
        assertTrue(output.contains("state directory " + dir + " is in use by another process"), output);
    }

    @Test
    void aCorruptStoreIsReportedByName() throws IOException {
        RocksDbStore.open(dir);
        RocksDbStore.close(dir);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path manifest : (Iterable<Path>) files.filter(f -> f.getFileName().toString()
                    .startsWith("MANIFEST-"))::iterator) {
                Files.write(manifest, "not a manifest at all, just some bytes".getBytes(StandardCharsets.UTF_8));
            }
        }

        StateStoreException e = assertThrows(StateStoreException.class, () -> RocksDbStore.open(dir));
        assertTrue(e.getMessage().startsWith("state directory " + dir + " is corrupt"), e.getMessage());
    }

    @Test
    void aDirectoryWithOtherContentsIsRefused() throws IOException {
        Files.writeString(dir.resolve("notes.txt"), "mine");

        StateStoreException e = assertThrows(StateStoreException.class, () -> RocksDbStore.open(dir));
        assertTrue(e.getMessage().contains(dir.toString()) && e.getMessage().contains("holds no state store"),
                e.getMessage());
    }
}
