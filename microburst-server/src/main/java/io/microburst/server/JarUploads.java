package io.microburst.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.storm.thrift.TApplicationException;
import org.apache.storm.thrift.TException;

/**
 * Topology jars on their way in ({@code beginFileUpload}, {@code uploadChunk}, {@code finishFileUpload}): each upload
 * is a file in the uploads folder under a name the server chose, and the location a client gets back is an opaque
 * token, never a path the client could steer. An upload larger than the limit is refused and its file deleted.
 *
 * <p>Thread-safe; chunks of one upload are written in the order the calls arrive, as Storm's submitter sends them.
 */
final class JarUploads {
    private static final String PREFIX = "upload-";

    private final Path dir;
    private final long maxBytes;
    private final Map<String, Upload> open = new ConcurrentHashMap<>();
    private final Map<String, Path> finished = new ConcurrentHashMap<>();

    JarUploads(Path dir, long maxBytes) throws IOException {
        this.dir = Files.createDirectories(dir);
        this.maxBytes = maxBytes;
        try (var stale = Files.list(dir)) {
            for (Path file : (Iterable<Path>) stale::iterator) {
                Files.deleteIfExists(file); // uploads never finished or never submitted before a restart
            }
        }
    }

    String begin() throws TException {
        String location = PREFIX + UUID.randomUUID() + ".jar";
        Path file = dir.resolve(location);
        try {
            open.put(location, new Upload(file, FileChannel.open(file, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)));
        } catch (IOException e) {
            throw new TApplicationException(TApplicationException.INTERNAL_ERROR, "beginFileUpload: " + e.getMessage());
        }
        return location;
    }

    void chunk(String location, ByteBuffer chunk) throws TException {
        Upload upload = open.get(location);
        if (upload == null) {
            throw new TApplicationException(TApplicationException.UNKNOWN, "uploadChunk: no upload in progress at '"
                + location + "'");
        }
        synchronized (upload) {
            if (upload.bytes + chunk.remaining() > maxBytes) {
                abort(location, upload);
                throw new TApplicationException(TApplicationException.UNKNOWN, "uploadChunk: the jar is larger than "
                    + maxBytes + " bytes (" + ServerConfig.UPLOAD_MAX_BYTES + "); upload refused");
            }
            try {
                upload.bytes += chunk.remaining();
                while (chunk.hasRemaining()) {
                    upload.channel.write(chunk);
                }
            } catch (IOException e) {
                abort(location, upload);
                throw new TApplicationException(TApplicationException.INTERNAL_ERROR, "uploadChunk: " + e.getMessage());
            }
        }
    }

    void finish(String location) throws TException {
        Upload upload = open.remove(location);
        if (upload == null) {
            throw new TApplicationException(TApplicationException.UNKNOWN, "finishFileUpload: no upload in progress at '"
                + location + "'");
        }
        synchronized (upload) {
            try {
                upload.channel.force(true);
                upload.channel.close();
            } catch (IOException e) {
                deleteQuietly(upload.file);
                throw new TApplicationException(TApplicationException.INTERNAL_ERROR, "finishFileUpload: " + e.getMessage());
            }
        }
        finished.put(location, upload.file);
    }

    /**
     * Hands over the file of a finished upload; the caller moves or deletes it.
     *
     * @throws TException naming the location when there is no finished upload there
     */
    Path take(String call, String location) throws TException {
        Path file = location == null ? null : finished.remove(location);
        if (file == null) {
            throw new TApplicationException(TApplicationException.UNKNOWN, call + ": no finished jar upload at '"
                + location + "' (upload the jar with beginFileUpload, uploadChunk and finishFileUpload first)");
        }
        return file;
    }

    private void abort(String location, Upload upload) {
        open.remove(location, upload);
        try {
            upload.channel.close();
        } catch (IOException ignored) {
            // the file goes anyway
        }
        deleteQuietly(upload.file);
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a leftover is removed at the next start
        }
    }

    private static final class Upload {
        final Path file;
        final FileChannel channel;
        long bytes;

        Upload(Path file, FileChannel channel) {
            this.file = file;
            this.channel = channel;
        }
    }
}
