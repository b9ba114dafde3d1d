package io.microburst.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process using the store that is killed with {@code kill -9} leaves no copy of RocksDB's native library behind
 * once the next one has started: before, each one left a 15 MB file in the temporary folder for ever (the server
 * soak found one more per server kill).
 */
class RocksDbLibraryTest {
    @TempDir
    Path tmp;

    @Test
    void aKilledProcesssCopyIsGoneOnceTheNextHasStarted() throws Exception {
        startAndKill(1);
        assertEquals(1, libraries().size(), "library copies after one killed process: " + libraries());
        startAndKill(2);
        startAndKill(3);
        List<Path> left = libraries();
        assertEquals(1, left.size(), "library copies after three killed processes (the last one's alone): " + left);
    }

    private void startAndKill(int n) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process p = new ProcessBuilder(List.of(java, "-Djava.io.tmpdir=" + tmp, "-cp", classPath,
            OpenStoreMain.class.getName(), tmp.resolve("store-" + n).toString(), "--wait"))
            .redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
            StandardCharsets.UTF_8))) {
            String line = out.readLine(); // blocks until the store is open, or the process ended
            assertEquals("opened", line, "process " + n + " did not open its store");
        } finally {
            p.destroyForcibly(); // SIGKILL: no shutdown hook, no delete-on-exit
            p.waitFor();
        }
        assertTrue(!p.isAlive());
    }

    /** Every copy of the native library anywhere under the temporary folder. */
    private List<Path> libraries() throws IOException {
        try (Stream<Path> files = Files.walk(tmp)) {
            return files.filter(f -> f.getFileName().toString().matches("librocksdbjni.*\\.(so|jnilib|dll)"))
                .sorted().toList();
        }
    }
}
