package io.microburst.bench.topology.email;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Streams serialized email records out of the compressed data set, starting over at its end, so a reader never runs dry.
 * Reads and decompresses in chunks as it goes (the I/O the workload is about). Confined to one thread.
 */
public final class EmailFileReader implements Closeable {
    private static final int MAX_RECORD = 1 << 24;
    private final Path file;
    private DataInputStream in;

    public EmailFileReader(Path file) {
        this.file = file;
    }

    /** The next serialized record, wrapping around at the end of the file. */
    public byte[] next() {
        try {
            for (int attempt = 0; attempt < 2; attempt++) {
                if (in == null) {
                    in = new DataInputStream(new BufferedInputStream(
                        new GZIPInputStream(Files.newInputStream(file), 1 << 16), 1 << 16));
                }
                try {
                    int length = in.readInt();
                    if (length < 0 || length > MAX_RECORD) {
                        throw new IOException("corrupt data set " + file + ": record length " + length);
                    }
                    byte[] record = new byte[length];
                    in.readFully(record);
                    return record;
                } catch (EOFException end) {
                    close();
                }
            }
            throw new IOException("empty data set " + file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (in != null) {
            try {
                in.close();
            } catch (IOException ignored) {
                // reading only: nothing to lose
            }
            in = null;
        }
    }
}
