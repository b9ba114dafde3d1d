package io.microburst;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cluster.upgrade.UpgradeOptions;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.storm.Config;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.hooks.BaseTaskHook;
import org.apache.storm.hooks.info.BoltAckInfo;
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
 * After an upgrade, the new version's first commit's acks reach its spout at once, not behind blocking nextTuple
 * calls. The spout is shaped like storm-kafka-client's: it emits one record per call from what it fetched, and when it
 * has none it "polls", blocking 50 ms, and emits the first of the next {@value #FETCH}. The first version runs its
 * calls warm ({@value #WARM_UP} records fetched without blocking), so the new spout's fast calls are fast: an executor
 * that then reads the clock only every 64 calls makes a few more polls (50 ms each) before it takes the acks from its
 * mail. While the upgrade caps the new spout ({@code FirstCommit}) the clock is read after every call, so the poll in
 * progress ends the turn. Counted, not timed: the polls the new spout started between the stateful bolt's acks (Storm's
 * stateful executor acks a checkpoint's tuples at its commit; a task hook sees them) and the spout's first ack, none.
 * Three upgrades a run (on main 95168cd one of them, at least, waited behind a poll, in 4 runs of 4);
 * {@code -Dmicroburst.upgrade.repeat=N} runs N.
 */
class UpgradeFirstAckTurnTest {
    static final AtomicInteger INSTANCES = new AtomicInteger();
    /** Polls by the new version's spout (the second instance). */
    static final AtomicInteger NEW_POLLS = new AtomicInteger();
    /** {@link #NEW_POLLS} at the bolt's last ack (at a commit: Storm's stateful executor holds acks until then). */
    static final AtomicInteger POLLS_AT_RELEASE = new AtomicInteger();
    /** At the new spout's first ack, the polls it started since the bolt's last ack; -1 before. */
    static final AtomicInteger BEHIND = new AtomicInteger(-1);
    static final AtomicInteger COMMITTED = new AtomicInteger();
    /** Records the first version fetches without blocking, so its calls are compiled, as a running spout's are. */
    static final int WARM_UP = 200_000;
    static final AtomicInteger EXECUTED = new AtomicInteger();
    /** Records a poll fetches: enough fast calls in a row for a loop to judge the calls fast. */
    static final int FETCH = 20;

    @TempDir
    Path stateDir;

    @Test
    void firstAcksDoNotWaitBehindBlockingNextTuples() throws Exception {
        for (int i = 0; i < Integer.getInteger("microburst.upgrade.repeat", 3); i++) {
            runOnce(stateDir.resolve("run-" + i));
        }
    }

    private void runOnce(Path dir) throws Exception {
        INSTANCES.set(0);
        NEW_POLLS.set(0);
        POLLS_AT_RELEASE.set(0);
        BEHIND.set(-1);
        COMMITTED.set(0);
        EXECUTED.set(0);
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_STATE_PROVIDER, "io.microburst.state.RocksDbKeyValueStateProvider");
        conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"directory\": \""
            + dir.toString().replace("\\", "\\\\") + "\"}");
        conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 20_000);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("turn", conf, topology());
            waitFor(() -> EXECUTED.get() >= WARM_UP, "the first version's warm-up executed", 60);
            Map<String, Object> upgrade = new HashMap<>(conf);
            upgrade.put(UpgradeOptions.UPGRADE, true);
            upgrade.put(UpgradeOptions.WAIT_SECS, 30);
            cluster.submitTopology("turn", upgrade, topology());
            waitFor(() -> BEHIND.get() >= 0, "the new version's first ack", 30);
            int behind = BEHIND.get();
            assertTrue(behind == 0, "the first acks waited behind " + behind + " polls of 50 ms after the bolt acked");
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts("turn", now);
        }
    }

    private static StormTopology topology() {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("records", new PollingSpout());
        builder.setBolt("count", new CountBolt(), 1).shuffleGrouping("records");
        return builder.createTopology();
    }

    private static void waitFor(BooleanSupplier condition, String what, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + seconds + " s: " + what + " (commits " + COMMITTED.get()
                    + ", new polls " + NEW_POLLS.get() + ")");
            }
            Thread.sleep(5);
        }
    }

    /** Emits one fetched record per call; with none, blocks 50 ms (a broker poll) and fetches {@value #FETCH}. */
    static final class PollingSpout extends BaseRichSpout {
        private transient SpoutOutputCollector collector;
        private transient ArrayDeque<Long> fetched;
        private transient boolean isNew;
        private long next;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            this.fetched = new ArrayDeque<>();
            this.isNew = INSTANCES.incrementAndGet() == 2;
        }

        @Override
        public void nextTuple() {
            if (fetched.isEmpty() && !isNew && next < WARM_UP) {
                for (int i = 0; i < 1000; i++) {
                    fetched.add(next++);
                }
            } else if (fetched.isEmpty()) {
                if (isNew) {
                    NEW_POLLS.incrementAndGet();
                }
                try {
                    Thread.sleep(50); // the user's own blocking call, as KafkaConsumer.poll with a timeout
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < FETCH; i++) {
                    fetched.add(next++);
                }
            }
            Long id = fetched.poll();
            collector.emit(new Values(id), id);
        }

        @Override
        public void ack(Object msgId) {
            if (isNew) {
                BEHIND.compareAndSet(-1, NEW_POLLS.get() - POLLS_AT_RELEASE.get());
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id"));
        }
    }

    /** Counts records in its state; Storm's stateful executor holds each ack until a checkpoint commits. */
    static final class CountBolt extends BaseStatefulBolt<KeyValueState<String, Long>> {
        private transient KeyValueState<String, Long> state;
        private transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            context.addTaskHook(new BaseTaskHook() {
                @Override
                public void boltAck(BoltAckInfo info) {
                    POLLS_AT_RELEASE.set(NEW_POLLS.get());
                }
            });
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
            EXECUTED.incrementAndGet();
            String key = "n-" + (input.getLong(0) % 16);
            state.put(key, state.get(key, 0L) + 1);
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("line"));
        }
    }
}
