package io.microburst.server.logviewer;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * The text of a log file as the logviewer shows it: a rolled {@code worker.log.N.gz} as its uncompressed text (as
 * Storm's logviewer shows it), any other file as it is. Offsets and lengths count bytes of that text. Stateless; any
 * thread.
 */
final class LogText {
    private LogText() {
    }

    static boolean gzipped(Path file) {
        return file.getFileName().toString().endsWith(".gz");
    }

    /** The file's text, from its first byte. */
    static InputStream open(Path file) throws IOException {
        InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        return gzipped(file) ? new GZIPInputStream(in, 1 << 16) : in;
    }

    /** How many bytes of text the file holds (a gzipped one is read through to count them). */
    static long size(Path file) throws IOException {
        if (!gzipped(file)) {
            return Files.size(file);
        }
        try (InputStream in = open(file)) {
            return in.transferTo(OutputStream.nullOutputStream());
        }
    }

    /** Up to {@code length} bytes of text from {@code from} (fewer at the end of the file). */
    static byte[] read(Path file, long from, int length) throws IOException {
        byte[] bytes = new byte[length];
        try (InputStream in = open(file)) {
            try {
                in.skipNBytes(from);
            } catch (EOFException e) {
                return new byte[0];
            }
            int n = in.readNBytes(bytes, 0, length);
            return n == length ? bytes : Arrays.copyOf(bytes, n);
        }
    }

    /** Whether the file is text the page shows, as Storm's logviewer decides by its name; others are only downloaded. */
    static boolean shown(String name) {
        return name.matches(".*\\.(log.*|txt|yaml|pid)$");
    }
}
