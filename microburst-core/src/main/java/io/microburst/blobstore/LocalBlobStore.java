package io.microburst.blobstore;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.storm.blobstore.BlobStoreAclHandler;
import org.apache.storm.generated.AuthorizationException;
import org.apache.storm.generated.KeyAlreadyExistsException;
import org.apache.storm.generated.KeyNotFoundException;
import org.apache.storm.generated.ReadableBlobMeta;
import org.apache.storm.generated.SettableBlobMeta;
import org.apache.storm.utils.Utils;

/**
 * A versioned blob store on the local file system, with the contract of Storm's Nimbus blob store: keys must be valid
 * Storm blob keys, creating an existing key fails with {@link KeyAlreadyExistsException} and anything done to a
 * missing key with {@link KeyNotFoundException}, both naming the key; ACLs are validated and normalized by storm-client's
 * {@link BlobStoreAclHandler} for an unauthenticated caller, as Nimbus does with authentication off.
 *
 * <p>Layout: {@code keys/<key>/} holds {@code meta} (the Thrift-serialized {@link SettableBlobMeta}) and
 * {@code data.<version>}, the current content; uploads are written under {@code uploads/} and moved in when
 * committed, so a reader sees either the old or the new version, never a part. Versions only grow (at least the
 * previous version plus one, else the commit time in milliseconds, as Storm's local store uses the file's time).
 *
 * <p>Thread-safe: every change of the store is made under the object's lock; reads of a version's file need none,
 * because a version's file is never rewritten (an update writes a new one, then deletes the old).
 */
public final class LocalBlobStore {
    private static final String META = "meta";
    private static final String DATA = "data.";
    private static final String UPLOADS = "uploads";
    private static final String KEYS = "keys";
    private static final int ALL = BlobStoreAclHandler.READ | BlobStoreAclHandler.WRITE | BlobStoreAclHandler.ADMIN;

    private final Path root;
    private final BlobStoreAclHandler acls;

    /**
     * @param root the folder the blobs live in; created if missing, and its blobs (from an earlier run) kept
     * @param conf the cluster configuration, for the ACL handler ({@code storm.blobstore.acl.validation.enabled})
     */
    public LocalBlobStore(Path root, Map<String, Object> conf) {
        try {
            this.root = Files.createDirectories(root);
            deleteTree(root.resolve(UPLOADS)); // uploads an earlier run never finished
            Files.createDirectories(root.resolve(UPLOADS));
            Files.createDirectories(root.resolve(KEYS));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the blob store folder " + root, e);
        }
        this.acls = new BlobStoreAclHandler(conf);
    }

    /** The folder the blobs live in. */
    public Path root() {
        return root;
    }

    /** One stored version of a blob: its number and its file (which a later update deletes). */
    private record Version(long version, Path file) {
    }

    /** A version of a blob opened for reading: what is read stays that version's even if the blob is updated. */
    public record Opened(long version, long size, java.io.InputStream in) {
    }

    /**
     * Starts creating {@code key}; nothing is stored until the upload is committed.
     *
     * @throws KeyAlreadyExistsException if the key exists (or is created by another upload before this one commits)
     * @throws IllegalArgumentException if {@code key} is not a valid blob key
     */
    public Upload create(String key, SettableBlobMeta meta) throws KeyAlreadyExistsException, AuthorizationException {
        validateKey(key);
        SettableBlobMeta normalized = meta == null ? new SettableBlobMeta(new ArrayList<>()) : meta.deepCopy();
        acls.normalizeSettableBlobMeta(key, normalized, null, ALL);
        BlobStoreAclHandler.validateSettableACLs(key, normalized.get_acl());
        acls.hasPermissions(normalized.get_acl(), ALL, null, key);
        synchronized (this) {
            if (exists(key)) {
                throw new KeyAlreadyExistsException(key);
            }
        }
        return new Upload(key, normalized);
    }

    /**
     * Starts writing a new version of {@code key}; the current version stays until the upload is committed.
     *
     * @throws KeyNotFoundException if there is no such key
     */
    public Upload update(String key) throws KeyNotFoundException, AuthorizationException {
        validateKey(key);
        SettableBlobMeta meta = storedMeta(key);
        acls.hasPermissions(meta.get_acl(), BlobStoreAclHandler.WRITE, null, key);
        return new Upload(key, null);
    }

    /** The key's metadata and current version. */
    public ReadableBlobMeta meta(String key) throws KeyNotFoundException, AuthorizationException {
        validateKey(key);
        synchronized (this) {
            SettableBlobMeta meta = storedMeta(key);
            acls.validateUserCanReadMeta(meta.get_acl(), null, key);
            return new ReadableBlobMeta(meta, current(key).version());
        }
    }

    /** Replaces the key's metadata (its ACL and replication factor). */
    public synchronized void setMeta(String key, SettableBlobMeta meta) throws KeyNotFoundException,
            AuthorizationException {
        validateKey(key);
        SettableBlobMeta normalized = meta == null ? new SettableBlobMeta(new ArrayList<>()) : meta.deepCopy();
        acls.normalizeSettableBlobMeta(key, normalized, null, BlobStoreAclHandler.ADMIN);
        BlobStoreAclHandler.validateSettableACLs(key, normalized.get_acl());
        acls.hasPermissions(storedMeta(key).get_acl(), BlobStoreAclHandler.ADMIN, null, key);
        writeMeta(key, normalized);
    }

    /** Opens the key's current version; the caller closes the stream. */
    public synchronized Opened open(String key) throws KeyNotFoundException, AuthorizationException {
        validateKey(key);
        acls.hasPermissions(storedMeta(key).get_acl(), BlobStoreAclHandler.READ, null, key);
        Version v = current(key);
        try {
            return new Opened(v.version(), Files.size(v.file()), Files.newInputStream(v.file()));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read blob " + key, e);
        }
    }

    /** Deletes the key and every version of it. */
    public synchronized void delete(String key) throws KeyNotFoundException, AuthorizationException {
        validateKey(key);
        acls.hasPermissions(storedMeta(key).get_acl(), BlobStoreAclHandler.WRITE, null, key);
        try {
            deleteTree(keyDir(key));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete blob " + key, e);
        }
    }

    /** Every key, sorted. */
    public synchronized List<String> keys() {
        List<String> keys = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root.resolve(KEYS))) {
            for (Path dir : dirs) {
                String name = dir.getFileName().toString();
                if (Files.isRegularFile(dir.resolve(META))) {
                    keys.add(name);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the blob store folder " + root, e);
        }
        Collections.sort(keys);
        return keys;
    }

    /** Whether the key exists. */
    public synchronized boolean exists(String key) {
        return Utils.isValidKey(key) && Files.isRegularFile(keyDir(key).resolve(META));
    }

    /** Whether {@code key} is a valid Storm blob key. */
    public static boolean isValid(String key) {
        return Utils.isValidKey(key);
    }

    private static void validateKey(String key) {
        if (!Utils.isValidKey(key)) {
            throw new IllegalArgumentException(key + " does not appear to be a valid blob key");
        }
    }

    private Path keyDir(String key) {
        return root.resolve(KEYS).resolve(key);
    }

    private SettableBlobMeta storedMeta(String key) throws KeyNotFoundException {
        Path meta = keyDir(key).resolve(META);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(meta);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new KeyNotFoundException(key);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the metadata of blob " + key, e);
        }
        return Utils.thriftDeserialize(SettableBlobMeta.class, bytes);
    }

    private void writeMeta(String key, SettableBlobMeta meta) {
        Path dir = keyDir(key);
        try {
            Path tmp = root.resolve(UPLOADS).resolve(UUID.randomUUID() + ".meta");
            Files.write(tmp, Utils.thriftSerialize(meta));
            Files.move(tmp, dir.resolve(META), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the metadata of blob " + key, e);
        }
    }

    private Version current(String key) throws KeyNotFoundException {
        long best = -1;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(keyDir(key), DATA + "*")) {
            for (Path f : files) {
                best = Math.max(best, Long.parseLong(f.getFileName().toString().substring(DATA.length())));
            }
        } catch (java.nio.file.NoSuchFileException e) {
            throw new KeyNotFoundException(key);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read blob " + key, e);
        }
        if (best < 0) {
            throw new KeyNotFoundException(key);
        }
        return new Version(best, keyDir(key).resolve(DATA + best));
    }

    private synchronized void commit(Upload upload) throws KeyAlreadyExistsException, KeyNotFoundException {
        String key = upload.key;
        Path dir = keyDir(key);
        try {
            long previous;
            if (upload.createMeta != null) {
                if (exists(key)) {
                    throw new KeyAlreadyExistsException(key);
                }
                deleteTree(dir);
                Files.createDirectories(dir);
                previous = 0;
            } else {
                previous = current(key).version();
            }
            long version = Math.max(previous + 1, System.currentTimeMillis());
            Files.move(upload.file, dir.resolve(DATA + version), StandardCopyOption.ATOMIC_MOVE);
            if (upload.createMeta != null) {
                writeMeta(key, upload.createMeta);
            } else {
                Files.deleteIfExists(dir.resolve(DATA + previous));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot store blob " + key, e);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * A blob being written: bytes go to a file of its own, which {@link #commit()} makes the key's new version and
     * {@link #cancel()} deletes. Confined to one writer at a time.
     */
    public final class Upload implements AutoCloseable {
        private final String key;
        /** The metadata of a created blob; null for an update. */
        private final SettableBlobMeta createMeta;
        private final Path file;
        private final OutputStream out;
        private boolean done;

        private Upload(String key, SettableBlobMeta createMeta) {
            this.key = key;
            this.createMeta = createMeta;
            this.file = root.resolve(UPLOADS).resolve(UUID.randomUUID() + ".data");
            try {
                this.out = Files.newOutputStream(file);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot start an upload of blob " + key, e);
            }
        }

        /** The key being written. */
        public String key() {
            return key;
        }

        /** Appends bytes. */
        public void write(byte[] bytes, int offset, int length) throws IOException {
            out.write(bytes, offset, length);
        }

        /** Makes what was written the key's current version. */
        public void commit() throws KeyAlreadyExistsException, KeyNotFoundException, IOException {
            if (done) {
                throw new IllegalStateException("The upload of blob " + key + " is already finished");
            }
            done = true;
            out.close();
            try {
                LocalBlobStore.this.commit(this);
            } finally {
                Files.deleteIfExists(file);
            }
        }

        /** Drops what was written; the key is left as it was. */
        public void cancel() {
            if (done) {
                return;
            }
            done = true;
            try {
                out.close();
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a temporary file left behind is deleted when the store next opens
            }
        }

        /** Cancels, unless committed. */
        @Override
        public void close() {
            cancel();
        }
    }
}
