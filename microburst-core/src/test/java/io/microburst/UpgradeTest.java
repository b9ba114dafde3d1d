package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cluster.upgrade.UpgradeOptions;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.storm.Config;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.state.StateFactory;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.topology.base.BaseStatefulBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upgrade of a running stateful counting topology (embedded RocksDB state, a spout that replays what fails) to a
 * new version of its bolt: the counts are carried, every id the spout saw acked is counted exactly once in the final
 * state, the new bolt's logic runs; and refused upgrades (a state type change, a bolt that does not deserialize) leave
 * the old version running untouched. {@code -Dmicroburst.upgrade.repeat=20} runs it 20 times.
 */
class UpgradeTest {
    static final int IDS = 2000;
    static final Queue<Integer> SOURCE = new ConcurrentLinkedQueue<>();
    static final Set<Integer> ACKED = ConcurrentHashMap.newKeySet();
    static final AtomicLong NEW_VERSION_EXECUTES = new AtomicLong();

    @TempDir
    Path stateDir;

    @Test
    void upgradeCarriesStateAndLosesNothing() throws Exception {
        int repeat = Integer.getInteger("microburst.upgrade.repeat", 1);
        for (int i = 0; i < repeat; i++) {
            runOnce(stateDir.resolve("run-" + i));
        }
    }

    private void runOnce(Path dir) throws Exception {
        SOURCE.clear();
        ACKED.clear();
        NEW_VERSION_EXECUTES.set(0);
        for (int i = 0; i < IDS; i++) {
            SOURCE.add(i);
        }
        Map<String, Object> conf = conf(dir);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("counts", conf, topology(new CountBolt()));
            waitFor(() -> ACKED.size() >= 300, "300 ids acked by the first version");
            String firstId = cluster.getTopologySummaryByName("counts").get_id();

            InvalidTopologyException typeChanged = assertThrows(InvalidTopologyException.class,
                () -> cluster.submitTopology("counts", upgrade(conf), topology(new StringStateBolt())));
            assertTrue(typeChanged.get_msg().contains("component 'count': its state type changed"),
                typeChanged.get_msg());
            InvalidTopologyException broken = assertThrows(InvalidTopologyException.class,
                () -> cluster.submitTopology("counts", upgrade(conf), topology(new BrokenBolt())));
            assertTrue(broken.get_msg().contains("component 'count' cannot be deserialized"), broken.get_msg());
            TopologySummary untouched = cluster.getTopologySummaryByName("counts");
            assertEquals(firstId, untouched.get_id());
            assertEquals("ACTIVE", untouched.get_status());
            int ackedAfterRefusals = ACKED.size();
            waitFor(() -> ACKED.size() > ackedAfterRefusals + 100, "the first version going on after the refusals");

            cluster.submitTopology("counts", upgrade(conf), topology(new CountBoltV2()));
            TopologySummary upgraded = cluster.getTopologySummaryByName("counts");
            assertNotEquals(firstId, upgraded.get_id());
            assertTrue(upgraded.get_sched_status().startsWith("upgraded to version 2 (" + firstId + " -> "),
                upgraded.get_sched_status());
            assertEquals(upgraded.get_id(), cluster.getTopologySummary(firstId).get_id(), "the old id finds it");
            waitFor(() -> NEW_VERSION_EXECUTES.get() > 100, "the new version counting");

            // a rename moves the state to the new id's namespaces; a new parallelism keeps the carried task count
            Map<String, Object> renamed = upgrade(conf);
            renamed.put(UpgradeOptions.RENAME, "count=tally");
            cluster.submitTopology("counts", renamed, topology(new CountBoltV2(), "tally", 2));
            assertTrue(cluster.getTopologySummaryByName("counts").get_sched_status().startsWith("upgraded to version 3"));
            waitFor(() -> ACKED.size() == IDS, "every id acked");
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts("counts", now);
        }
        Map<String, Long> counted = committedCounts(conf, "tally");
        for (int id = 0; id < IDS; id++) {
            assertEquals(1L, counted.getOrDefault("id-" + id, 0L), "id " + id + " counted once in the final state");
        }
        long perKey = 0;
        for (int k = 0; k < 5; k++) {
            perKey += counted.getOrDefault("key-" + k, 0L);
        }
        assertEquals(IDS, perKey, "the per-key counts carried across the upgrade");
    }

    @Test
    void stateInMemoryIsRefusedUnlessDropped() throws Exception {
        for (int i = 0; i < Integer.getInteger("microburst.upgrade.repeat", 1); i++) {
            inMemoryOnce();
        }
    }

    private void inMemoryOnce() throws Exception {
        SOURCE.clear();
        ACKED.clear();
        for (int i = 0; i < IDS; i++) {
            SOURCE.add(i);
        }
        Map<String, Object> conf = new HashMap<>(); // Storm's default state provider: in memory
        conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 100);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("counts", conf, topology(new CountBolt()));
            waitFor(() -> ACKED.size() >= 50, "50 ids acked");
            String firstId = cluster.getTopologySummaryByName("counts").get_id();
            InvalidTopologyException inMemory = assertThrows(InvalidTopologyException.class,
                () -> cluster.submitTopology("counts", upgrade(conf), topology(new CountBoltV2())));
            assertEquals("Upgrade of topology 'counts' refused: its state is kept in memory (no topology.state.provider),"
                + " which an upgrade cannot carry; use a durable provider, or give --drop-state for count",
                inMemory.get_msg());
            assertEquals(firstId, cluster.getTopologySummaryByName("counts").get_id());

            Map<String, Object> dropped = upgrade(conf);
            dropped.put(UpgradeOptions.DROP_STATE, "count");
            dropped.put(UpgradeOptions.WAIT_SECS, 0);
            cluster.submitTopology("counts", dropped, topology(new StringStateBolt()));
            assertTrue(cluster.getTopologySummaryByName("counts").get_sched_status().startsWith("upgraded to version 2"));
        }
    }

    private static Map<String, Object> conf(Path dir) {
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_STATE_PROVIDER, "io.microburst.state.RocksDbKeyValueStateProvider");
        conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"directory\": \""
            + dir.toString().replace("\\", "\\\\") + "\"}");
        conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 50);
        conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 100);
        return conf;
    }

    private static Map<String, Object> upgrade(Map<String, Object> conf) {
        Map<String, Object> next = new HashMap<>(conf);
        next.put(UpgradeOptions.UPGRADE, true);
        next.put(UpgradeOptions.WAIT_SECS, 30);
        return next;
    }

    private static StormTopology topology(BaseStatefulBolt<?> bolt) {
        return topology(bolt, "count", 1);
    }

    private static StormTopology topology(BaseStatefulBolt<?> bolt, String id, int parallelism) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("ids", new ReplayingSpout());
        builder.setBolt(id, bolt, parallelism).shuffleGrouping("ids");
        return builder.createTopology();
    }

    /** The committed state of every task of {@code component} (task ids are small; absent ones are empty). */
    private static Map<String, Long> committedCounts(Map<String, Object> conf, String component) {
        Map<String, Long> all = new HashMap<>();
        for (int task = 1; task <= 10; task++) {
            @SuppressWarnings("unchecked")
            KeyValueState<String, Long> state = (KeyValueState<String, Long>) StateFactory.getState(component + "-" + task,
                conf, null);
            state.rollback();
            state.forEach(e -> all.merge(e.getKey(), e.getValue(), Long::sum));
        }
        return all;
    }

    private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what + " (acked " + ACKED.size() + ")");
            }
            Thread.sleep(5);
        }
    }

    /** Emits the ids of {@link #SOURCE}; a failed id goes back to it, so any version replays it. */
    static final class ReplayingSpout extends BaseRichSpout {
        private transient SpoutOutputCollector collector;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            Integer id = SOURCE.poll();
            if (id != null) {
                collector.emit(new Values(id), id);
            }
        }

        @Override
        public void ack(Object msgId) {
            ACKED.add((Integer) msgId);
        }

        @Override
        public void fail(Object msgId) {
            SOURCE.add((Integer) msgId);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id"));
        }
    }

    /** Counts each id and each of five keys in its state. */
    static class CountBolt extends BaseStatefulBolt<KeyValueState<String, Long>> {
        private transient KeyValueState<String, Long> state;
        transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void initState(KeyValueState<String, Long> state) {
            this.state = state;
        }

        @Override
        public void execute(Tuple input) {
            int id = input.getInteger(0);
            state.put("id-" + id, state.get("id-" + id, 0L) + 1);
            state.put("key-" + id % 5, state.get("key-" + id % 5, 0L) + 1);
            counted(input);
            collector.ack(input); // Storm's stateful executor holds the ack until the checkpoint commits
        }

        void counted(Tuple input) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("line"));
        }
    }

    /** The new version: counts the same way, and also emits the id with a suffix. */
    static final class CountBoltV2 extends CountBolt {
        @Override
        void counted(Tuple input) {
            NEW_VERSION_EXECUTES.incrementAndGet();
            collector.emit(input, new Values(input.getInteger(0) + "-v2"));
        }
    }

    /** A new version whose state type changed: refused. */
    static final class StringStateBolt extends BaseStatefulBolt<KeyValueState<String, String>> {
        @Override
        public void initState(KeyValueState<String, String> state) {
        }

        @Override
        public void execute(Tuple input) {
        }
    }

    /** A new version that cannot be deserialized: refused. */
    static final class BrokenBolt extends CountBolt {
        private void readObject(ObjectInputStream in) throws IOException {
            throw new IOException("this version cannot be read back");
        }
    }
}
