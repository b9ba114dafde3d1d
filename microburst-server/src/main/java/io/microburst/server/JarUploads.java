package io.microburst.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.storm.thrift.TApplicationException;
import org.apache.storm.thrift.TException;

/**
 * Topology jars on their way in ({@code beginFileUpload}, {@code uploadChunk}, {@code finishFileUpload}): each upload
 * is a file in the uploads folder under a name the server chose, and the location a client gets back is an opaque
 * token, never a path the client could steer. Refused, with the upload's file deleted: a jar larger than the limit,
 * more uploads in progress at once than allowed, and at the finish a file that is not a jar, that has entries naming
 * paths outside it or that would expand past a limit ({@link JarCheck}). An upload that goes without a chunk, or a
 * finished one without its submission, for {@code nimbus.file.copy.expiration.secs} is dropped by {@link #expire()}, as
 * Storm's Nimbus drops it, so a client that stalls holds neither a file nor a descriptor for long.
 *
 * <p>Thread-safe: Thrift calls arrive on several worker threads and {@link #expire()} on the server's scheduler;
 * chunks of one upload are written in the order the calls arrive, as Storm's submitter sends them.
 */
final class JarUploads {
    private static final String PREFIX = "upload-";
    /** How many expired locations are remembered, to say "expired" rather than "unknown" when a client comes back. */
    private static final int REMEMBERED = 1000;

    private final Path dir;
    private final UploadLimits limits;
    private final Map<String, Upload> open = new ConcurrentHashMap<>();
    private final Map<String, Upload> finished = new ConcurrentHashMap<>();
    private final Map<String, Boolean> expired = Collections.synchronizedMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED;
        }
    });

    JarUploads(Path dir, UploadLimits limits) throws IOException {
        this.dir = Files.createDirectories(dir);
        this.limits = limits;
        try (var stale = Files.list(dir)) {
            for (Path file : (Iterable<Path>) stale::iterator) {
                Files.deleteIfExists(file); // uploads never finished or never submitted before a restart
            }
        }
    }

    String begin() throws TException {
        String location = PREFIX + UUID.randomUUID() + ".jar";
        Path file = dir.resolve(location);
        synchronized (open) {
            if (open.size() >= limits.maxOpen()) {
                throw refused("beginFileUpload: too many uploads in progress (" + open.size() + ", the most "
                    + ServerConfig.UPLOAD_MAX_OPEN + " allows); finish or wait for one, an idle one is dropped after "
                    + limits.expirationSecs() + " s (" + ServerConfig.FILE_COPY_EXPIRATION_SECS + ")");
            }
            try {
                open.put(location, new Upload(file, FileChannel.open(file, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)));
            } catch (IOException e) {
                throw new TApplicationException(TApplicationException.INTERNAL_ERROR, "beginFileUpload: cannot create "
                    + "the upload's file: " + e.getMessage());
            }
        }
        return location;
    }

    void chunk(String location, ByteBuffer chunk) throws TException {
        Upload upload = inProgress("uploadChunk", location);
        if (chunk == null) {
            throw refused("uploadChunk: no chunk given for '" + location + "'; send the jar's next bytes");
        }
        synchronized (upload) {
            if (upload.channel == null) {
                throw unknown("uploadChunk", location);
            }
            if (upload.bytes + chunk.remaining() > limits.maxBytes()) {
                abort(location, upload);
                throw refused("uploadChunk: the jar is larger than " + limits.maxBytes() + " bytes ("
                    + ServerConfig.UPLOAD_MAX_BYTES + "); upload refused");
            }
            try {
                upload.bytes += chunk.remaining();
                upload.touched = System.nanoTime();
                while (chunk.hasRemaining()) {
                    upload.channel.write(chunk);
                }
            } catch (IOException e) {
                abort(location, upload);
                throw new TApplicationException(TApplicationException.INTERNAL_ERROR, "uploadChunk: cannot write the "
                    + "upload's file: " + e.getMessage());
            }
        }
    }

    void finish(String location) throws TException {
        Upload upload = inProgress("finishFileUpload", location);
        synchronized (upload) {
            if (upload.channel == null || !open.remove(location, upload)) {
                throw unknown("finishFileUpload", location);
            }
            try {
                upload.channel.force(true);
                upload.channel.close();
                upload.channel = null;
            } catch (IOException e) {
                abort(location, upload);
                throw new TApplicationException(TApplicationException.INTERNAL_ERROR, "finishFileUpload: cannot write "
                    + "the upload's file: " + e.getMessage());
            }
            String problem = JarCheck.problem(upload.file, limits.maxExpandedBytes());
            if (problem != null) {
                deleteQuietly(upload.file);
                throw refused("finishFileUpload: " + problem);
            }
            upload.touched = System.nanoTime();
        }
        finished.put(location, upload);
    }

    /**
     * Hands over the file of a finished upload; the caller moves or deletes it.
     *
     * @throws TException naming the location when there is no finished upload there
     */
    Path take(String call, String location) throws TException {
        Upload upload = location == null ? null : finished.remove(location);
        if (upload == null) {
            throw refused(call + ": no finished jar upload at '" + location + "'" + (wasExpired(location)
                ? " (it expired after " + limits.expirationSecs() + " s without a call, "
                + ServerConfig.FILE_COPY_EXPIRATION_SECS + ")" : "")
                + " (upload the jar with beginFileUpload, uploadChunk and finishFileUpload first)");
        }
        return upload.file;
    }

    /** Drops uploads idle for longer than the expiration, finished ones included, and deletes their files. */
    void expire() {
        long idleNanos = TimeUnit.SECONDS.toNanos(limits.expirationSecs());
        long now = System.nanoTime();
        open.forEach((location, upload) -> {
            synchronized (upload) {
                if (upload.channel != null && now - upload.touched > idleNanos) {
                    expired.put(location, Boolean.TRUE);
                    abort(location, upload);
                }
            }
        });
        finished.forEach((location, upload) -> {
            if (now - upload.touched > idleNanos && finished.remove(location, upload)) {
                expired.put(location, Boolean.TRUE);
                deleteQuietly(upload.file);
            }
        });
    }

    /** How often {@link #expire()} should run: a tenth of the expiration, at least every second. */
    long expireEveryMillis() {
        return Math.max(10, Math.min(1000, TimeUnit.SECONDS.toMillis(limits.expirationSecs()) / 10));
    }

    private Upload inProgress(String call, String location) throws TException {
        Upload upload = location == null ? null : open.get(location);
        if (upload == null) {
            throw unknown(call, location);
        }
        return upload;
    }

    private TException unknown(String call, String location) {
        return refused(call + ": no upload in progress at '" + location + "'" + (wasExpired(location)
            ? ": it expired after " + limits.expirationSecs() + " s without a chunk ("
            + ServerConfig.FILE_COPY_EXPIRATION_SECS + "); upload the jar again"
            : "; begin one with beginFileUpload and use the location it answers"));
    }

    private boolean wasExpired(String location) {
        return location != null && expired.containsKey(location);
    }

    private static TApplicationException refused(String message) {
        return new TApplicationException(TApplicationException.UNKNOWN, message);
    }

    /** Drops an upload in progress: its file goes. The caller holds the upload's monitor. */
    private void abort(String location, Upload upload) {
        open.remove(location, upload);
        try {
            if (upload.channel != null) {
                upload.channel.close();
            }
        } catch (IOException ignored) {
            // the file goes anyway
        }
        upload.channel = null;
        deleteQuietly(upload.file);
    }

    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a leftover is removed at the next start
        }
    }

    /** One upload; its fields are guarded by its monitor. */
    private static final class Upload {
        final Path file;
        FileChannel channel;
        long bytes;
        long touched = System.nanoTime();

        Upload(Path file, FileChannel channel) {
            this.file = file;
            this.channel = channel;
        }
    }
}
