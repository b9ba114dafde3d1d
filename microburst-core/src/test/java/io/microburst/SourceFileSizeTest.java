package io.microburst;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps every main source file of every module under {@value #MAX_LINES} lines, the size past which a class has
 * usually taken on a second job (docs/ARCHITECTURE.md; split it by job, not by an arbitrary cut).
 */
class SourceFileSizeTest {
    private static final int MAX_LINES = 400;

    @Test
    void noMainSourceFileIsOver400Lines() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        assertTrue(Files.isRegularFile(root.resolve("pom.xml")) && Files.isDirectory(root.resolve("microburst-core")),
            "run from microburst-core inside the project: " + root);
        List<Path> sourceRoots;
        try (Stream<Path> modules = Files.list(root)) {
            sourceRoots = modules.filter(m -> m.getFileName().toString().startsWith("microburst-"))
                .map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList();
        }
        assertTrue(sourceRoots.size() > 3, "found too few modules to check anything under " + root);
        List<String> tooLong = new ArrayList<>();
        for (Path sources : sourceRoots) {
            try (Stream<Path> files = Files.walk(sources)) {
                files.filter(p -> p.toString().endsWith(".java")).filter(p -> lines(p) > MAX_LINES)
                    .forEach(p -> tooLong.add(root.relativize(p) + " (" + lines(p) + " lines)"));
            }
        }
        assertTrue(tooLong.isEmpty(), "main source files over " + MAX_LINES + " lines: " + tooLong);
    }

    private static long lines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }
}
