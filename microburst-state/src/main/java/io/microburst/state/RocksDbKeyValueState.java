package io.microburst.state;

import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.storm.state.BaseBinaryStateIterator;
import org.apache.storm.state.DefaultStateEncoder;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.state.Serializer;
import org.rocksdb.RocksDBException;

/**
 * A {@link KeyValueState} of one namespace in a {@link RocksDbStore}, with Storm's checkpoint contract:
 * <ul>
 *   <li>{@link #put} and {@link #delete} change only this task's memory until the next checkpoint;</li>
 *   <li>{@link #prepareCommit} writes those changes (merged with a prepared transaction that was not committed) as
 *       the prepared transaction, durably;</li>
 *   <li>{@link #commit(long)} moves the prepared transaction into the committed entries, atomically and durably;</li>
 *   <li>{@link #rollback} drops the prepared transaction and the changes since, back to the committed entries;</li>
 *   <li>{@link #commit()} (used by the checkpoint spout for its own state) writes the changes straight into the
 *       committed entries.</li>
 * </ul>
 * A new instance on the same namespace (after a restart) sees the committed entries and any prepared transaction,
 * so the checkpoint spout's recovery (commit or roll back the transaction in flight) completes it.
 *
 * <p>Used by one task's thread at a time, as Storm's stateful bolts and checkpoint spout use their state.
 */
public final class RocksDbKeyValueState<K, V> implements KeyValueState<K, V> {
    private static final int ITERATOR_CHUNK = 256;
    private static final NavigableMap<byte[], byte[]> NOTHING_PREPARED =
            Collections.unmodifiableNavigableMap(new TreeMap<>(Arrays::compareUnsigned));

    private final String namespace;
    private final byte[] prefix;
    private final RocksDbStore store;
    private final DefaultStateEncoder<K, V> encoder;
    private final byte[] tombstone;
    private ConcurrentNavigableMap<byte[], byte[]> pending = newPending();
    private NavigableMap<byte[], byte[]> prepared;

    RocksDbKeyValueState(String namespace, RocksDbStore store, Serializer<K> keySerializer,
                         Serializer<V> valueSerializer) {
        this.namespace = namespace;
        this.prefix = RocksDbStore.prefix(namespace);
        this.store = store;
        this.encoder = new DefaultStateEncoder<>(keySerializer, valueSerializer);
        this.tombstone = encoder.getTombstoneValue();
        this.prepared = Collections.unmodifiableNavigableMap(store.preparedEntries(prefix));
    }

    private static ConcurrentNavigableMap<byte[], byte[]> newPending() {
        return new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
    }

    @Override
    public void put(K key, V value) {
        pending.put(encoder.encodeKey(key), encoder.encodeValue(value));
    }

    @Override
    public V get(K key) {
        byte[] encodedKey = encoder.encodeKey(key);
        byte[] value = pending.get(encodedKey);
        if (value == null) {
            value = prepared.get(encodedKey);
        }
        if (value == null) {
            value = store.getCommitted(prefix, encodedKey);
        }
        return value == null || Arrays.equals(value, tombstone) ? null : encoder.decodeValue(value);
    }

    @Override
    public V get(K key, V defaultValue) {
        V value = get(key);
        return value != null ? value : defaultValue;
    }

    @Override
    public V delete(K key) {
        V current = get(key);
        pending.put(encoder.encodeKey(key), tombstone);
        return current;
    }

    @Override
    public Iterator<Map.Entry<K, V>> iterator() {
        return new CommittedAndPendingIterator();
    }

    @Override
    public void prepareCommit(long txid) {
        Long committedTxid = store.txid(prefix, RocksDbStore.COMMIT_TXID);
        if (committedTxid != null && txid <= committedTxid) {
            throw new IllegalStateException(where() + ": cannot prepare txid " + txid + ", txid " + committedTxid
                    + " is already committed");
        }
        NavigableMap<byte[], byte[]> changes = new TreeMap<>(Arrays::compareUnsigned);
        changes.putAll(prepared);
        changes.putAll(pending);
        try (RocksDbStore.Batch batch = store.batch(prefix)) {
            batch.clearPrepared();
            for (Map.Entry<byte[], byte[]> e : changes.entrySet()) {
                batch.putPrepared(e.getKey(), e.getValue());
            }
            batch.putTxid(RocksDbStore.PREPARE_TXID, txid);
            batch.write(where() + ": preparing txid " + txid);
        } catch (RocksDBException e) {
            throw failure("preparing txid " + txid, e);
        }
        pending = newPending();
        prepared = Collections.unmodifiableNavigableMap(changes);
    }

    @Override
    public void commit(long txid) {
        Long committedTxid = store.txid(prefix, RocksDbStore.COMMIT_TXID);
        if (committedTxid != null && txid < committedTxid) {
            throw new IllegalStateException(where() + ": cannot commit txid " + txid + ", txid " + committedTxid
                    + " is already committed");
        }
        Long preparedTxid = store.txid(prefix, RocksDbStore.PREPARE_TXID);
        if (preparedTxid != null && txid != preparedTxid) {
            throw new IllegalStateException(where() + ": cannot commit txid " + txid + ", the prepared txid is "
                    + preparedTxid);
        }
        try (RocksDbStore.Batch batch = store.batch(prefix)) {
            applyToCommitted(batch, prepared);
            batch.clearPrepared();
            batch.putTxid(RocksDbStore.COMMIT_TXID, txid);
            batch.write(where() + ": committing txid " + txid);
        } catch (RocksDBException e) {
            throw failure("committing txid " + txid, e);
        }
        prepared = NOTHING_PREPARED;
    }

    @Override
    public void commit() {
        try (RocksDbStore.Batch batch = store.batch(prefix)) {
            applyToCommitted(batch, pending);
            batch.write(where() + ": committing");
        } catch (RocksDBException e) {
            throw failure("committing", e);
        }
        pending = newPending();
    }

    @Override
    public void rollback() {
        Long committedTxid = store.txid(prefix, RocksDbStore.COMMIT_TXID);
        try (RocksDbStore.Batch batch = store.batch(prefix)) {
            batch.clearPrepared();
            if (committedTxid != null) {
                batch.putTxid(RocksDbStore.PREPARE_TXID, committedTxid);
            } else {
                batch.deleteTxid(RocksDbStore.PREPARE_TXID);
            }
            batch.write(where() + ": rolling back");
        } catch (RocksDBException e) {
            throw failure("rolling back", e);
        }
        pending = newPending();
        prepared = NOTHING_PREPARED;
    }

    private void applyToCommitted(RocksDbStore.Batch batch, Map<byte[], byte[]> changes) throws RocksDBException {
        for (Map.Entry<byte[], byte[]> e : changes.entrySet()) {
            if (Arrays.equals(e.getValue(), tombstone)) {
                batch.deleteCommitted(e.getKey());
            } else {
                batch.putCommitted(e.getKey(), e.getValue());
            }
        }
    }

    private String where() {
        return "state '" + namespace + "'";
    }

    private StateStoreException failure(String what, RocksDBException e) {
        return new StateStoreException(where() + ": " + what + " in state directory " + store.directory()
                + " failed: " + e.getMessage(), e);
    }

    @Override
    public String toString() {
        return "RocksDbKeyValueState{namespace=" + namespace + ", directory=" + store.directory() + "}";
    }

    /** Pending changes first, then the prepared transaction, then the committed entries in chunks; deletions hide. */
    private final class CommittedAndPendingIterator extends BaseBinaryStateIterator<K, V> {
        private byte[] lastKey;
        private boolean exhausted;

        CommittedAndPendingIterator() {
            super(pending.entrySet().iterator(), prepared.entrySet().iterator());
        }

        @Override
        protected Iterator<Map.Entry<byte[], byte[]>> loadChunkFromStateStorage() {
            NavigableMap<byte[], byte[]> chunk = store.committedChunk(prefix, lastKey, ITERATOR_CHUNK);
            exhausted = chunk.size() < ITERATOR_CHUNK;
            if (!chunk.isEmpty()) {
                lastKey = chunk.lastKey();
            }
            return chunk.entrySet().iterator();
        }

        @Override
        protected boolean isEndOfDataFromStorage() {
            return exhausted;
        }

        @Override
        protected K decodeKey(byte[] key) {
            return encoder.decodeKey(key);
        }

        @Override
        protected V decodeValue(byte[] value) {
            return encoder.decodeValue(value);
        }

        @Override
        protected boolean isTombstoneValue(byte[] value) {
            return Arrays.equals(value, tombstone);
        }
    }
}
