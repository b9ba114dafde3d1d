package example.scaleout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Lines a task writes to {@code <dir>/<part>-<task id>.txt}, each flushed whole as it is written, so that a reader
 * sees complete lines (a last line without its newline is still being written).
 */
final class Sink implements AutoCloseable {
    private final Writer out;

    Sink(String dir, String part, int taskId) {
        try {
            Path file = Path.of(dir).resolve(part + "-" + taskId + ".txt");
            Files.createDirectories(file.getParent());
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void line(String line) {
        try {
            out.write(line + "\n");
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
