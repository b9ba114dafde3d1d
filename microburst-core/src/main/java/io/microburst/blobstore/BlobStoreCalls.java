package io.microburst.blobstore;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.storm.Config;
import org.apache.storm.generated.AuthorizationException;
import org.apache.storm.generated.BeginDownloadResult;
import org.apache.storm.generated.KeyAlreadyExistsException;
import org.apache.storm.generated.KeyNotFoundException;
import org.apache.storm.generated.ListBlobsResult;
import org.apache.storm.generated.ReadableBlobMeta;
import org.apache.storm.generated.SettableBlobMeta;
import org.apache.storm.utils.ObjectReader;

/**
 * The blob calls of Storm's {@code Nimbus.Iface}, with Nimbus's sessions, over a {@link LocalBlobStore}: what
 * {@code NimbusBlobStore} (storm-client's {@code ClientBlobStore}, {@code storm blobstore ...}) talks to. Uploads
 * are {@code beginCreateBlob}/{@code beginUpdateBlob}, {@code uploadBlobChunk}s, then {@code finishBlobUpload} or
 * {@code cancelBlobUpload}; downloads are {@code beginBlobDownload} then {@code downloadBlobChunk} until an empty
 * chunk; {@code listBlobs("")} gives every key and a session whose next call ends the listing. Sessions left idle
 * longer than {@code nimbus.blobstore.expiration.secs} are dropped, as Nimbus drops them.
 *
 * <p>Thread-safe; one session is used by one caller at a time.
 */
public final class BlobStoreCalls {
    private final LocalBlobStore store;
    /** Key to the id of a running topology that localizes it, or null: such a blob cannot be deleted. */
    private final Function<String, String> usedBy;
    private final int chunkBytes;
    private final long expiryNanos;
    private final Map<String, Session<LocalBlobStore.Upload>> uploads = new ConcurrentHashMap<>();
    private final Map<String, Session<InputStream>> downloads = new ConcurrentHashMap<>();
    private final Map<String, Session<List<String>>> listings = new ConcurrentHashMap<>();

    /**
     * @param store the blobs
     * @param conf the cluster configuration (chunk size, session expiry)
     * @param usedBy a key to the id of a running topology that uses it, or to null
     */
    public BlobStoreCalls(LocalBlobStore store, Map<String, Object> conf, Function<String, String> usedBy) {
        this.store = store;
        this.usedBy = usedBy;
        this.chunkBytes = ObjectReader.getInt(conf.get(Config.STORM_BLOBSTORE_INPUTSTREAM_BUFFER_SIZE_BYTES), 65536);
        this.expiryNanos = TimeUnit.SECONDS.toNanos(ObjectReader.getInt(conf.get("nimbus.blobstore.expiration.secs"),
            600));
    }

    /** The store the calls work on. */
    public LocalBlobStore store() {
        return store;
    }

    private static final class Session<T> {
        final T value;
        volatile long touchedNanos = System.nanoTime();

        Session(T value) {
            this.value = value;
        }
    }

    private static String newSession() {
        return UUID.randomUUID().toString();
    }

    private <T> T use(Map<String, Session<T>> sessions, String session) {
        Session<T> s = session == null ? null : sessions.get(session);
        if (s == null) {
            throw new IllegalStateException("Blob for session " + session + " does not exist (or timed out)");
        }
        s.touchedNanos = System.nanoTime();
        return s.value;
    }

    private void expireIdleSessions() {
        long now = System.nanoTime();
        for (Iterator<Map.Entry<String, Session<LocalBlobStore.Upload>>> it = uploads.entrySet().iterator();
             it.hasNext(); ) {
            Map.Entry<String, Session<LocalBlobStore.Upload>> e = it.next();
            if (now - e.getValue().touchedNanos > expiryNanos) {
                it.remove();
                e.getValue().value.cancel();
            }
        }
        for (Iterator<Map.Entry<String, Session<InputStream>>> it = downloads.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Session<InputStream>> e = it.next();
            if (now - e.getValue().touchedNanos > expiryNanos) {
                it.remove();
                closeQuietly(e.getValue().value);
            }
        }
        listings.values().removeIf(s -> now - s.touchedNanos > expiryNanos);
    }

    public String beginCreateBlob(String key, SettableBlobMeta meta) throws KeyAlreadyExistsException,
            AuthorizationException {
        expireIdleSessions();
        String session = newSession();
        uploads.put(session, new Session<>(store.create(key, meta)));
        return session;
    }

    public String beginUpdateBlob(String key) throws KeyNotFoundException, AuthorizationException {
        expireIdleSessions();
        String session = newSession();
        uploads.put(session, new Session<>(store.update(key)));
        return session;
    }

    public void uploadBlobChunk(String session, ByteBuffer chunk) {
        LocalBlobStore.Upload upload = use(uploads, session);
        ByteBuffer bytes = chunk.slice();
        try {
            if (bytes.hasArray()) {
                upload.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            } else {
                byte[] copy = new byte[bytes.remaining()];
                bytes.get(copy);
                upload.write(copy, 0, copy.length);
            }
        } catch (IOException e) {
            uploads.remove(session);
            upload.cancel();
            throw new UncheckedIOException("Cannot write blob " + upload.key(), e);
        }
    }

    public void finishBlobUpload(String session) throws KeyAlreadyExistsException, KeyNotFoundException {
        LocalBlobStore.Upload upload = use(uploads, session);
        uploads.remove(session);
        try {
            upload.commit();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot store blob " + upload.key(), e);
        }
    }

    public void cancelBlobUpload(String session) {
        LocalBlobStore.Upload upload = use(uploads, session);
        uploads.remove(session);
        upload.cancel();
    }

    public ReadableBlobMeta getBlobMeta(String key) throws KeyNotFoundException, AuthorizationException {
        return store.meta(key);
    }

    public void setBlobMeta(String key, SettableBlobMeta meta) throws KeyNotFoundException, AuthorizationException {
        store.setMeta(key, meta);
    }

    public BeginDownloadResult beginBlobDownload(String key) throws KeyNotFoundException, AuthorizationException {
        expireIdleSessions();
        LocalBlobStore.Opened opened = store.open(key);
        String session = newSession();
        downloads.put(session, new Session<>(opened.in()));
        BeginDownloadResult result = new BeginDownloadResult(opened.version(), session);
        result.set_data_size(opened.size());
        return result;
    }

    /** The next chunk; an empty one at the end, which also ends the session. */
    public ByteBuffer downloadBlobChunk(String session) {
        InputStream in = use(downloads, session);
        try {
            byte[] chunk = in.readNBytes(chunkBytes);
            if (chunk.length == 0) {
                downloads.remove(session);
                in.close();
            }
            return ByteBuffer.wrap(chunk);
        } catch (IOException e) {
            downloads.remove(session);
            closeQuietly(in);
            throw new UncheckedIOException("Cannot read the blob of download session " + session, e);
        }
    }

    /**
     * Deletes the key, unless a running topology localizes it.
     *
     * @throws org.apache.storm.generated.IllegalStateException (Nimbus's) naming the key and the topology using it
     */
    public void deleteBlob(String key) throws KeyNotFoundException, AuthorizationException,
            org.apache.storm.generated.IllegalStateException {
        String topologyId = LocalBlobStore.isValid(key) ? usedBy.apply(key) : null;
        if (topologyId != null) {
            throw new org.apache.storm.generated.IllegalStateException("Attempting to delete active blob " + key + " used by topology "
                + topologyId);
        }
        store.delete(key);
    }

    /** Every key at the first call ({@code session} empty), then an empty list that ends the listing. */
    public ListBlobsResult listBlobs(String session) {
        expireIdleSessions();
        if (session == null || session.isEmpty()) {
            String id = newSession();
            List<String> keys = store.keys();
            listings.put(id, new Session<>(keys));
            return new ListBlobsResult(keys, id);
        }
        use(listings, session);
        listings.remove(session);
        return new ListBlobsResult(List.of(), session);
    }

    /** One copy: the one machine's. */
    public int getBlobReplication(String key) throws KeyNotFoundException, AuthorizationException {
        store.meta(key);
        return 1;
    }

    /** Refused, as Storm's local file system blob store refuses it. */
    public int updateBlobReplication(String key, int replication) {
        throw new UnsupportedOperationException("For local file system blob store the update blobs function does not"
            + " work; the blob store of one machine keeps one copy of " + key);
    }

    /** Nothing to do: there is no ZooKeeper state, and one copy of each blob. */
    public void createStateInZookeeper(String key) {
    }

    public boolean isRemoteBlobExists(String key) throws AuthorizationException {
        try {
            store.meta(key);
            return true;
        } catch (KeyNotFoundException e) {
            return false;
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // nothing left to read from it
        }
    }
}
