package io.microburst;

import io.microburst.cluster.upgrade.UpgradeOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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
 * The new version of an upgraded stateful topology acks its first tuples at once, not a checkpoint interval later:
 * with checkpoints every 20 seconds, a stateful bolt holds its acks until a commit, and the new version's first
 * checkpoint (which follows its recovery at once) has already committed when its spout first emits; the next would
 * come 20 s later. The upgrade has the checkpoint spout start one at the spout's first emit ({@code FirstCommit}), so
 * the 100 ids are acked well within 10 s (Storm's idle checkpoint spout sleeps a tenth of the interval, 2 s, which the
 * start may wait for). Without it they wait for the interval. {@code -Dmicroburst.upgrade.repeat=20} runs it 20 times.
 */
class UpgradeFirstCommitTest {
    static final Queue<Integer> SOURCE = new ConcurrentLinkedQueue<>();
    static final Set<Integer> ACKED = ConcurrentHashMap.newKeySet();
    static final AtomicInteger COMMITTED = new AtomicInteger();

    @TempDir
    Path stateDir;

    @Test
    void newVersionCommitsItsFirstTuplesWithoutWaitingForTheInterval() throws Exception {
        for (int i = 0; i < Integer.getInteger("microburst.upgrade.repeat", 1); i++) {
            runOnce(stateDir.resolve("run-" + i));
        }
    }

    private void runOnce(Path dir) throws Exception {
        SOURCE.clear();
        ACKED.clear();
        COMMITTED.set(0);
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_STATE_PROVIDER, "io.microburst.state.RocksDbKeyValueStateProvider");
        conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"directory\": \""
            + dir.toString().replace("\\", "\\\\") + "\"}");
        conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 20_000);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("first", conf, topology());
            waitFor(() -> COMMITTED.get() >= 1, "the first version's first commit", 60);
            Map<String, Object> upgrade = new HashMap<>(conf);
            upgrade.put(UpgradeOptions.UPGRADE, true);
            upgrade.put(UpgradeOptions.WAIT_SECS, 10);
            int committedBefore = COMMITTED.get();
            cluster.submitTopology("first", upgrade, topology());
            // the new version recovers and commits its first checkpoint at once, with nothing in it; the next would
            // come 20 seconds later
            waitFor(() -> COMMITTED.get() > committedBefore, "the new version's first commit", 60);
            List<Integer> ids = new ArrayList<>();
            for (int id = 0; id < 100; id++) {
                ids.add(id);
            }
            SOURCE.addAll(ids); // one append: the spout sees the 100 ids together
            waitFor(() -> ACKED.size() == 100, "the new version's first 100 ids acked", 10);
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts("first", now);
        }
    }

    private static StormTopology topology() {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("ids", new QueueSpout());
        builder.setBolt("count", new CountBolt(), 1).shuffleGrouping("ids");
        return builder.createTopology();
    }

    private static void waitFor(BooleanSupplier condition, String what, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + seconds + " s: " + what + " (acked " + ACKED.size()
                    + ", commits " + COMMITTED.get() + ")");
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
        public void preCommit(long txid) {
            COMMITTED.incrementAndGet();
        }

        @Override
        public void execute(Tuple input) {
            String key = "id-" + input.getInteger(0);
            state.put(key, state.get(key, 0L) + 1);
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("line"));
        }
    }
}
