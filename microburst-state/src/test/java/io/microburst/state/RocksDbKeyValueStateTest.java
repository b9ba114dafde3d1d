package io.microburst.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.state.StateFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Storm's checkpoint contract on the RocksDB provider, including what a new process sees after a crash. */
class RocksDbKeyValueStateTest {
    @TempDir
    Path dir;

    @AfterEach
    void closeStore() {
        RocksDbStore.close(dir);
    }

    private Map<String, Object> conf() {
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_STATE_PROVIDER, RocksDbKeyValueStateProvider.class.getName());
        conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"directory\": \"" + dir + "\"}");
        return conf;
    }

    @SuppressWarnings("unchecked")
    private KeyValueState<String, Long> state(String namespace) {
        return (KeyValueState<String, Long>) StateFactory.getState(namespace, conf(), null);
    }

    /** What a restarted process sees: the store closed without any further call, then opened anew. */
    private KeyValueState<String, Long> afterCrash(String namespace) {
        RocksDbStore.close(dir);
        return state(namespace);
    }

    @Test
    void selectedByNameThroughStormsStateFactory() {
        assertTrue(StateFactory.getState("bolt-1", conf(), null) instanceof RocksDbKeyValueState);
    }

    @Test
    void committedCheckpointSurvivesARestart() {
        KeyValueState<String, Long> state = state("bolt-1");
        state.put("a", 1L);
        state.put("b", 2L);
        state.prepareCommit(1);
        state.commit(1);
        state.put("a", 10L); // not checkpointed: lost on a crash, as Storm's contract says

        KeyValueState<String, Long> restarted = afterCrash("bolt-1");
        assertEquals(1L, restarted.get("a"));
        assertEquals(2L, restarted.get("b"));
        assertEquals(7L, restarted.get("c", 7L));
    }

    @Test
    void namespacesAreSeparate() {
        KeyValueState<String, Long> one = state("bolt-1");
        KeyValueState<String, Long> two = state("bolt-12");
        one.put("a", 1L);
        one.commit();
        two.put("a", 2L);
        two.commit();

        assertEquals(1L, afterCrash("bolt-1").get("a"));
        assertEquals(2L, state("bolt-12").get("a"));
        assertNull(state("bolt-2").get("a"));
    }

    @Test
    void crashWhilePreparingRollsBackToTheLastCommit() {
        KeyValueState<String, Long> state = state("bolt-1");
        state.put("a", 1L);
        state.prepareCommit(1);
        state.commit(1);
        state.put("a", 2L);
        state.put("b", 2L);
        state.prepareCommit(2);

        KeyValueState<String, Long> restarted = afterCrash("bolt-1");
        assertEquals(2L, restarted.get("a"), "the prepared transaction is visible until recovery decides");
        restarted.rollback();
        assertEquals(1L, restarted.get("a"));
        assertNull(restarted.get("b"));
        assertEquals(1L, afterCrash("bolt-1").get("a"), "the rollback is durable");
    }

    @Test
    void crashWhileCommittingCompletesTheCommitOnRecovery() {
        KeyValueState<String, Long> state = state("bolt-1");
        state.put("a", 1L);
        state.put("gone", 5L);
        state.prepareCommit(1);
        state.commit(1);
        state.put("a", 2L);
        state.delete("gone");
        state.prepareCommit(2);

        KeyValueState<String, Long> restarted = afterCrash("bolt-1");
        restarted.commit(2);
        KeyValueState<String, Long> again = afterCrash("bolt-1");
        assertEquals(2L, again.get("a"));
        assertNull(again.get("gone"));
        again.commit(2); // a crash after the commit but before the spout saved it: the same commit again is harmless
        assertEquals(2L, again.get("a"));
    }

    @Test
    void anUncommittedPreparationIsMergedIntoTheNextOne() {
        KeyValueState<String, Long> state = state("bolt-1");
        state.put("a", 1L);
        state.prepareCommit(1);
        state.put("b", 2L);
        state.prepareCommit(1); // the same txid prepared again, as the spout does after a failed prepare
        state.commit(1);

        KeyValueState<String, Long> restarted = afterCrash("bolt-1");
        assertEquals(1L, restarted.get("a"));
        assertEquals(2L, restarted.get("b"));
    }

    @Test
    void refusesTxidsOutOfOrder() {
        KeyValueState<String, Long> state = state("bolt-1");
        state.put("a", 1L);
        state.prepareCommit(3);
        state.commit(3);
        IllegalStateException prepare = assertThrows(IllegalStateException.class, () -> state.prepareCommit(3));
        assertTrue(prepare.getMessage().contains("bolt-1"), prepare.getMessage());
        state.prepareCommit(4);
        assertThrows(IllegalStateException.class, () -> state.commit(5));
    }

    @Test
    void iteratesPendingPreparedAndCommittedEntriesOnceEach() {
        KeyValueState<String, Long> state = state("bolt-1");
        for (int i = 0; i < 600; i++) {
            state.put("k" + i, (long) i);
        }
        state.prepareCommit(1);
        state.commit(1);
        state.put("k1", 100L);
        state.delete("k2");
        state.prepareCommit(2);
        state.put("k3", 300L);
        state.delete("k4");
        state.put("new", 1L);

        Map<String, Long> seen = new HashMap<>();
        state.forEach(e -> assertNull(seen.put(e.getKey(), e.getValue()), "seen twice: " + e.getKey()));
        assertEquals(599, seen.size());
        assertEquals(100L, seen.get("k1"));
        assertFalse(seen.containsKey("k2"));
        assertEquals(300L, seen.get("k3"));
        assertFalse(seen.containsKey("k4"));
        assertEquals(1L, seen.get("new"));
        assertEquals(599L, seen.get("k599"));
    }

    @Test
    void storeReportsCommittedAndPreparedTxids() {
        KeyValueState<String, Long> state = state("bolt-1");
        state.put("a", 1L);
        state.prepareCommit(1);
        RocksDbStore store = RocksDbStore.open(dir);
        assertTrue(store.hasPreparedEntries("bolt-1"));
        assertEquals(1L, store.preparedTxid("bolt-1"));
        assertNull(store.committedTxid("bolt-1"));
        state.commit(1);
        assertFalse(store.hasPreparedEntries("bolt-1"));
        assertEquals(1L, store.committedTxid("bolt-1"));
    }
}
