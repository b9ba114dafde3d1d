package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cluster.upgrade.UpgradeOptions;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.storm.Config;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.state.KeyValueState;
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
 * An upgrade does not wait for the old version's checkpoint interval: with checkpoints every 20 seconds and tuples
 * whose acks a stateful bolt holds until the next commit, the old version commits a final checkpoint at once when its
 * spout stops (Storm's checkpoint spout sleeps a tenth of the interval, 2 s, when it has nothing to do: the nudge may
 * wait for that), so every tree completes within the upgrade's 10 s wait (nothing failed back for replay) and the old
 * version acks them all before the upgrade returns. Waiting for the interval instead, the wait runs out. {@code -Dmicroburst.upgrade.repeat=20} runs it 20 times.
 */
class UpgradeFinalCheckpointTest {
    static final Queue<Integer> SOURCE = new ConcurrentLinkedQueue<>();
    static final Set<Integer> ACKED = ConcurrentHashMap.newKeySet();
    static final AtomicInteger EXECUTED = new AtomicInteger();
    static final AtomicInteger PREPARED = new AtomicInteger();

    @TempDir
    Path stateDir;

    @Test
    void oldVersionCommitsItsFinalCheckpointWithoutWaitingForTheInterval() throws Exception {
        for (int i = 0; i < Integer.getInteger("microburst.upgrade.repeat", 1); i++) {
            runOnce(stateDir.resolve("run-" + i));
        }
    }

    private void runOnce(Path dir) throws Exception {
        SOURCE.clear();
        ACKED.clear();
        EXECUTED.set(0);
        PREPARED.set(0);
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_STATE_PROVIDER, "io.microburst.state.RocksDbKeyValueStateProvider");
        conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"directory\": \""
            + dir.toString().replace("\\", "\\\\") + "\"}");
        conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 20_000);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("held", conf, topology());
            // the first checkpoint follows recovery at once; the next one would come 20 seconds later, so the bolt
            // holds the acks of what it counts after the first prepare until then
            waitFor(() -> PREPARED.get() >= 1, "the first checkpoint's prepare");
            for (int id = 0; id < 100; id++) {
                SOURCE.add(id);
            }
            waitFor(() -> EXECUTED.get() == 100, "ids 0 to 99 counted");
            assertTrue(ACKED.isEmpty(), "the bolt holds the acks of ids counted after the first checkpoint");

            Map<String, Object> upgrade = new HashMap<>(conf);
            upgrade.put(UpgradeOptions.UPGRADE, true);
            upgrade.put(UpgradeOptions.WAIT_SECS, 10);
            long start = System.nanoTime();
            cluster.submitTopology("held", upgrade, topology());
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            String status = cluster.getTopologySummaryByName("held").get_sched_status();
            assertTrue(status.startsWith("upgraded to version 2") && !status.contains("replayed"),
                "nothing failed back for replay: " + status + " (upgrade took " + tookMs + " ms)");
            assertEquals(100, ACKED.size(), "every id acked by the old version when the upgrade returned");
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts("held", now);
        }
    }

    private static StormTopology topology() {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("ids", new QueueSpout());
        builder.setBolt("count", new CountBolt(), 1).shuffleGrouping("ids");
        return builder.createTopology();
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

    /** Emits the ids of {@link #SOURCE}; a failed id goes back to it. */
    static final class QueueSpout extends BaseRichSpout {
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

    /** Counts each id in its state; Storm's stateful executor holds each ack until a checkpoint commits. */
    static final class CountBolt extends BaseStatefulBolt<KeyValueState<String, Long>> {
        private transient KeyValueState<String, Long> state;
        private transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void initState(KeyValueState<String, Long> state) {
            this.state = state;
        }

        @Override
        public void prePrepare(long txid) {
            PREPARED.incrementAndGet();
        }

        @Override
        public void execute(Tuple input) {
            String key = "id-" + input.getInteger(0);
            state.put(key, state.get(key, 0L) + 1);
            EXECUTED.incrementAndGet();
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("line"));
        }
    }
}
