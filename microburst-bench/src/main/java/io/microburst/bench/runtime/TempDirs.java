package io.microburst.bench.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Temporary directories the benchmark makes for its children and servers. */
public final class TempDirs {
    private TempDirs() {
    }

    /** Deletes {@code dir} and everything in it; returns false if anything is left (it is never an error to leave). */
    public static boolean deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
            return true;
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
    }
}
