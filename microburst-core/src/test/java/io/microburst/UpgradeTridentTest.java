package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cluster.upgrade.UpgradeOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.operation.BaseFunction;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.operation.builtin.Count;
import org.apache.storm.trident.spout.ITridentSpout;
import org.apache.storm.trident.state.map.MapState;
import org.apache.storm.trident.testing.MemoryMapState;
import org.apache.storm.trident.topology.TransactionAttempt;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

/**
 * An upgrade of a running Trident word count (transactional batches, {@code persistentAggregate} on
 * {@link MemoryMapState}) to a new version: every batch's words are counted exactly once across the versions, and the
 * old version's coordinators close while the new version starts. The old version's batch coordinator here closes only
 * once the new version has emitted a batch (at most 20 s): before the coordinators' closes could trail the old
 * version's stop, the new version could not start until that close returned, so the wait ran out.
 * {@code -Dmicroburst.upgrade.repeat=20} runs it 20 times.
 */
class UpgradeTridentTest {
    static final int SENTENCES_PER_BATCH = 5;
    static final String[] SENTENCES = {"the cow jumped over the moon", "an apple a day", "four score and seven"};
    /** The sentence ids of each batch id, fixed once emitted, so a replay emits the same ones. */
    static final Map<Long, List<Integer>> BATCHES = new ConcurrentHashMap<>();
    static final AtomicInteger NEXT = new AtomicInteger();
    static final Map<Long, Integer> SUCCEEDED = new ConcurrentHashMap<>(); // batch id -> version whose batch succeeded
    static volatile boolean emitting;
    static volatile CountDownLatch secondVersionEmitted;
    static volatile Boolean oldCloseSawNewVersion;

    @Test
    void wordsCountedOnceAndOldCoordinatorsCloseWhileTheNewVersionStarts() throws Exception {
        for (int i = 0; i < Integer.getInteger("microburst.upgrade.repeat", 1); i++) {
            runOnce();
        }
    }

    private void runOnce() throws Exception {
        BATCHES.clear();
        NEXT.set(0);
        SUCCEEDED.clear();
        emitting = true;
        secondVersionEmitted = new CountDownLatch(1);
        oldCloseSawNewVersion = null;
        MemoryMapState.Factory state = new MemoryMapState.Factory();
        Map<String, Object> conf = new HashMap<>();
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("words", conf, topology(state, 1));
            waitFor(() -> SUCCEEDED.size() >= 5, "5 batches of the first version");
            Map<String, Object> upgrade = new HashMap<>(conf);
            upgrade.put(UpgradeOptions.UPGRADE, true);
            upgrade.put(UpgradeOptions.WAIT_SECS, 30);
            cluster.submitTopology("words", upgrade, topology(state, 2));
            assertEquals(Boolean.TRUE, oldCloseSawNewVersion,
                "the old batch coordinator's close ended after the new version emitted, not after its 20 s wait");
            waitFor(() -> SUCCEEDED.containsValue(2) && SUCCEEDED.size() >= 10, "batches of the second version");
            emitting = false; // batches from now on are empty, so the count below is final once one more succeeds
            int settled = SUCCEEDED.size();
            waitFor(() -> SUCCEEDED.size() > settled + 1, "two more batches");
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts("words", now);
        }
        long words = 0;
        for (List<Integer> ids : BATCHES.values()) {
            for (int id : ids) {
                words += SENTENCES[id % SENTENCES.length].split(" ").length;
            }
        }
        assertEquals(words, counted(state), "every word of every batch counted exactly once in the state");
    }

    private static StormTopology topology(MemoryMapState.Factory state, int version) {
        TridentTopology topology = new TridentTopology();
        topology.newStream("sentences", new Sentences(version))
            .parallelismHint(1) // one emitter: each emitter task emits the whole batch
            .shuffle()
            .each(new Fields("sentence"), new Split(), new Fields("word"))
            .parallelismHint(version) // the new version changes the split's parallelism
            .groupBy(new Fields("word"))
            .persistentAggregate(state, new Count(), new Fields("count"))
            .parallelismHint(2);
        return topology.build();
    }

    @SuppressWarnings("unchecked")
    private static long counted(MemoryMapState.Factory state) {
        List<List<Object>> keys = new ArrayList<>();
        for (String sentence : SENTENCES) {
            for (String word : sentence.split(" ")) {
                if (!keys.contains(List.of(word))) {
                    keys.add(List.of(word));
                }
            }
        }
        long total = 0;
        for (int partition = 0; partition < 2; partition++) {
            MapState<Object> map = (MapState<Object>) state.makeState(Map.of(), null, partition, 2);
            for (Object count : map.multiGet(keys)) {
                total += count instanceof Number n ? n.longValue() : 0;
            }
        }
        return total;
    }

    private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what + " (succeeded " + SUCCEEDED.size() + ")");
            }
            Thread.sleep(5);
        }
    }

    /** A transactional spout: a batch id always holds the same sentences, whichever version emits it. */
    public static final class Sentences implements ITridentSpout<Object> {
        private final int version;

        Sentences(int version) {
            this.version = version;
        }

        @Override
        public BatchCoordinator<Object> getCoordinator(String txStateId, Map<String, Object> conf,
                                                       TopologyContext context) {
            return new BatchCoordinator<>() {
                @Override
                public Object initializeTransaction(long txid, Object prevMetadata, Object currMetadata) {
                    return null;
                }

                @Override
                public void success(long txid) {
                    SUCCEEDED.put(txid, version);
                }

                @Override
                public boolean isReady(long txid) {
                    return true;
                }

                @Override
                public void close() {
                    if (version != 1 || oldCloseSawNewVersion != null) {
                        return;
                    }
                    try {
                        oldCloseSawNewVersion = secondVersionEmitted.await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        oldCloseSawNewVersion = false;
                    }
                }
            };
        }

        @Override
        public Emitter<Object> getEmitter(String txStateId, Map<String, Object> conf, TopologyContext context) {
            return new Emitter<>() {
                @Override
                public void emitBatch(TransactionAttempt tx, Object coordinatorMeta, TridentCollector collector) {
                    List<Integer> ids = BATCHES.computeIfAbsent(tx.getTransactionId(), b -> {
                        List<Integer> fresh = new ArrayList<>();
                        for (int i = 0; emitting && i < SENTENCES_PER_BATCH; i++) {
                            fresh.add(NEXT.getAndIncrement());
                        }
                        return fresh;
                    });
                    for (int id : ids) {
                        collector.emit(new Values(SENTENCES[id % SENTENCES.length]));
                    }
                    if (version == 2) {
                        secondVersionEmitted.countDown();
                    }
                }

                @Override
                public void success(TransactionAttempt tx) {
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public Map<String, Object> getComponentConfiguration() {
            return null;
        }

        @Override
        public Fields getOutputFields() {
            return new Fields("sentence");
        }
    }

    /** Splits a sentence on spaces. */
    public static final class Split extends BaseFunction {
        @Override
        public void execute(TridentTuple tuple, TridentCollector collector) {
            for (String word : tuple.getString(0).split(" ")) {
                collector.emit(new Values(word));
            }
        }
    }
}
