package io.microburst.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Status;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * One RocksDB database in one directory, shared by every state of a process that names that directory. Three column
 * families hold, per namespace, the committed entries, the entries of the prepared (not yet committed) transaction,
 * and the last prepared and committed transaction ids. Every write is one atomic batch, synced to disk before it
 * returns, so a crash at any point leaves either the old or the new checkpoint.
 *
 * <p>Keys inside a column family are the namespace (its UTF-8 length as 4 bytes, then the bytes) followed by the
 * serialized key, so one namespace is one contiguous key range. Thread-safe.
 */
public final class RocksDbStore {
    static final byte[] COMMIT_TXID = "commit".getBytes(StandardCharsets.UTF_8);
    static final byte[] PREPARE_TXID = "prepare".getBytes(StandardCharsets.UTF_8);
    private static final Map<Path, RocksDbStore> OPEN = new HashMap<>();

    static {
        RocksDbLibrary.load();
    }

    private final Path directory;
    private final RocksDB db;
    private final ColumnFamilyHandle committed;
    private final ColumnFamilyHandle prepared;
    private final ColumnFamilyHandle txids;
    private final WriteOptions syncWrites;

    private RocksDbStore(Path directory, RocksDB db, List<ColumnFamilyHandle> handles) {
        this.directory = directory;
        this.db = db;
        this.committed = handles.get(1);
        this.prepared = handles.get(2);
        this.txids = handles.get(3);
        this.syncWrites = new WriteOptions().setSync(true);
    }

    /**
     * The store in {@code directory}, opened (and created if missing) on first use in this process.
     *
     * @throws StateStoreException naming the directory if it is in use by another process, corrupt, not a state
     *                             store, or cannot be created
     */
    public static synchronized RocksDbStore open(Path directory) {
        Path dir = directory.toAbsolutePath().normalize();
        RocksDbStore store = OPEN.get(dir);
        if (store == null) {
            store = openDatabase(dir);
            OPEN.put(dir, store);
        }
        return store;
    }

    /**
     * Closes the store in {@code directory} if this process has it open. Only for tools and tests: every state that
     * uses the store must be out of use, since its later calls would fail.
     */
    public static synchronized void close(Path directory) {
        RocksDbStore store = OPEN.remove(directory.toAbsolutePath().normalize());
        if (store != null) {
            store.committed.close();
            store.prepared.close();
            store.txids.close();
            store.db.close();
            store.syncWrites.close();
        }
    }

    private static RocksDbStore openDatabase(Path dir) {
        checkDirectory(dir);
        List<ColumnFamilyDescriptor> families = List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
                new ColumnFamilyDescriptor("committed".getBytes(StandardCharsets.UTF_8)),
                new ColumnFamilyDescriptor("prepared".getBytes(StandardCharsets.UTF_8)),
                new ColumnFamilyDescriptor("txids".getBytes(StandardCharsets.UTF_8)));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
                .setParanoidChecks(true)) {
            RocksDB db = RocksDB.open(options, dir.toString(), families, handles);
            return new RocksDbStore(dir, db, handles);
        } catch (RocksDBException e) {
            throw openFailure(dir, e);
        }
    }

    private static void checkDirectory(Path dir) {
        try {
            Files.createDirectories(dir);
            boolean empty;
            try (Stream<Path> entries = Files.list(dir)) {
                empty = entries.findAny().isEmpty();
            }
            if (!empty && !Files.exists(dir.resolve("CURRENT"))) {
                throw new StateStoreException("state directory " + dir + " is not empty and holds no state store"
                        + " (no CURRENT file): it is corrupt or belongs to something else; configure an empty or"
                        + " missing directory");
            }
        } catch (IOException e) {
            throw new StateStoreException("cannot create state directory " + dir + ": " + e, e);
        }
    }

    private static StateStoreException openFailure(Path dir, RocksDBException e) {
        Status status = e.getStatus();
        Status.Code code = status != null ? status.getCode() : null;
        String detail = e.getMessage();
        if (code == Status.Code.IOError && detail != null && detail.contains("LOCK")) {
            return new StateStoreException("state directory " + dir + " is in use by another process (it holds "
                    + dir.resolve("LOCK") + "): stop that process or configure another directory", e);
        }
        if (code == Status.Code.Corruption || (detail != null && detail.toLowerCase().contains("corrupt"))) {
            return new StateStoreException("state directory " + dir + " is corrupt: " + detail, e);
        }
        return new StateStoreException("cannot open state directory " + dir + ": " + detail, e);
    }

    public Path directory() {
        return directory;
    }

    static byte[] prefix(String namespace) {
        byte[] name = namespace.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + name.length).putInt(name.length).put(name).array();
    }

    static byte[] concat(byte[] prefix, byte[] key) {
        byte[] full = new byte[prefix.length + key.length];
        System.arraycopy(prefix, 0, full, 0, prefix.length);
        System.arraycopy(key, 0, full, prefix.length, key.length);
        return full;
    }

    /** The smallest key after every key that starts with {@code prefix}. */
    private static byte[] after(byte[] prefix) {
        byte[] end = prefix.clone();
        for (int i = end.length - 1; i >= 0; i--) {
            if (end[i] != (byte) 0xff) {
                end[i]++;
                return Arrays.copyOf(end, i + 1);
            }
        }
        throw new IllegalArgumentException("no key range follows an all-0xff prefix");
    }

    byte[] getCommitted(byte[] prefix, byte[] key) {
        try {
            return db.get(committed, concat(prefix, key));
        } catch (RocksDBException e) {
            throw new StateStoreException("reading from state directory " + directory + " failed: " + e.getMessage(), e);
        }
    }

    /** Up to {@code limit} committed entries of a namespace whose keys follow {@code afterKey} (null: from the start). */
    NavigableMap<byte[], byte[]> committedChunk(byte[] prefix, byte[] afterKey, int limit) {
        return scan(committed, prefix, afterKey, limit);
    }

    /** Every entry of the prepared transaction of a namespace. */
    NavigableMap<byte[], byte[]> preparedEntries(byte[] prefix) {
        return scan(prepared, prefix, null, Integer.MAX_VALUE);
    }

    private NavigableMap<byte[], byte[]> scan(ColumnFamilyHandle family, byte[] prefix, byte[] afterKey, int limit) {
        NavigableMap<byte[], byte[]> chunk = new TreeMap<>(Arrays::compareUnsigned);
        try (RocksIterator it = db.newIterator(family)) {
            it.seek(afterKey == null ? prefix : concat(prefix, afterKey));
            while (it.isValid() && chunk.size() < limit) {
                byte[] key = it.key();
                if (!startsWith(key, prefix)) {
                    break;
                }
                byte[] userKey = Arrays.copyOfRange(key, prefix.length, key.length);
                if (afterKey == null || Arrays.compareUnsigned(userKey, afterKey) > 0) {
                    chunk.put(userKey, it.value());
                }
                it.next();
            }
            it.status();
        } catch (RocksDBException e) {
            throw new StateStoreException("reading from state directory " + directory + " failed: " + e.getMessage(), e);
        }
        return chunk;
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length
                && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** The transaction id stored under {@code which} ({@link #COMMIT_TXID} or {@link #PREPARE_TXID}), or null. */
    Long txid(byte[] prefix, byte[] which) {
        try {
            byte[] value = db.get(txids, concat(prefix, which));
            return value == null ? null : ByteBuffer.wrap(value).getLong();
        } catch (RocksDBException e) {
            throw new StateStoreException("reading from state directory " + directory + " failed: " + e.getMessage(), e);
        }
    }

    /** The last committed transaction id of a namespace, or null if none was committed. */
    public Long committedTxid(String namespace) {
        return txid(prefix(namespace), COMMIT_TXID);
    }

    /** The last prepared transaction id of a namespace, or null. */
    public Long preparedTxid(String namespace) {
        return txid(prefix(namespace), PREPARE_TXID);
    }

    /** Whether a namespace has a prepared transaction with entries that is not committed yet. */
    public boolean hasPreparedEntries(String namespace) {
        return !scan(prepared, prefix(namespace), null, 1).isEmpty();
    }

    /** Starts an atomic batch of writes; {@link Batch#write} applies it. */
    Batch batch(byte[] prefix) {
        return new Batch(prefix);
    }

    /** An atomic group of writes to one namespace, applied and synced by {@link #write}. */
    final class Batch implements AutoCloseable {
        private final byte[] prefix;
        private final WriteBatch batch = new WriteBatch();

        private Batch(byte[] prefix) {
            this.prefix = prefix;
        }

        Batch putCommitted(byte[] key, byte[] value) throws RocksDBException {
            batch.put(committed, concat(prefix, key), value);
            return this;
        }

        Batch deleteCommitted(byte[] key) throws RocksDBException {
            batch.delete(committed, concat(prefix, key));
            return this;
        }

        Batch putPrepared(byte[] key, byte[] value) throws RocksDBException {
            batch.put(prepared, concat(prefix, key), value);
            return this;
        }

        Batch clearPrepared() throws RocksDBException {
            batch.deleteRange(prepared, prefix, after(prefix));
            return this;
        }

        Batch putTxid(byte[] which, long txid) throws RocksDBException {
            batch.put(txids, concat(prefix, which), ByteBuffer.allocate(8).putLong(txid).array());
            return this;
        }

        Batch deleteTxid(byte[] which) throws RocksDBException {
            batch.delete(txids, concat(prefix, which));
            return this;
        }

        /** Applies the batch atomically and syncs it to disk. */
        void write(String what) {
            try {
                db.write(syncWrites, batch);
            } catch (RocksDBException e) {
                throw new StateStoreException(what + " in state directory " + directory + " failed: "
                        + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            batch.close();
        }
    }
}
