package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.microburst.cluster.upgrade.UpgradeOptions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.storm.Config;
import org.apache.storm.Constants;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.ShellBolt;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.IRichBolt;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

/**
 * An upgrade starts the new version's multi-lang components (their Python subprocesses) before the old version's
 * drain ends, so the output gap does not hold an interpreter's start; and the new version does nothing visible
 * meanwhile. The old version holds one tuple unacked until the test lets it go, so its drain cannot end before: the
 * new version's shell bolt must have prepared (its subprocess answered the handshake) while that tuple is held, its
 * spout not opened and none of its tasks given a tuple. Then everything after the upgrade is acked by the new version,
 * and no subprocess is left after the kill. Before the change (main at 2be5bc6) the new version started only after
 * the old one stopped: the wait for its shell bolt ran out. {@code -Dmicroburst.upgrade.repeat=20} runs it 20 times.
 */
class UpgradeEarlyStartTest {
    static final Queue<Integer> SOURCE = new ConcurrentLinkedQueue<>();
    static final Set<Integer> ACKED = ConcurrentHashMap.newKeySet();
    /** Topology ids whose spout opened, whose shell bolt prepared, and (id, topology id) of each recorded word. */
    static final List<String> OPENED = new CopyOnWriteArrayList<>();
    static final List<String> PREPARED = new CopyOnWriteArrayList<>();
    static final List<String> RECORDED = new CopyOnWriteArrayList<>();
    static volatile boolean release;

    @Test
    void newVersionsSubprocessesStartWhileTheOldVersionDrains() throws Exception {
        assumeTrue(pythonAvailable(), "python3 is not installed");
        for (int i = 0; i < Integer.getInteger("microburst.upgrade.repeat", 1); i++) {
            runOnce();
        }
    }

    private void runOnce() throws Exception {
        SOURCE.clear();
        ACKED.clear();
        OPENED.clear();
        PREPARED.clear();
        RECORDED.clear();
        release = false;
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 120); // nothing may time out while the test holds a tuple
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("early", conf, topology());
            for (int id = 0; id < 10; id++) {
                SOURCE.add(id);
            }
            waitFor(() -> ACKED.size() == 9 && RECORDED.size() == 10, "the first version's words, id 0 held", 60);
            String first = OPENED.get(0);
            Map<String, Object> upgrade = new HashMap<>(conf);
            upgrade.put(UpgradeOptions.UPGRADE, true);
            upgrade.put(UpgradeOptions.WAIT_SECS, 90);
            Throwable[] failed = new Throwable[1];
            Thread upgrading = new Thread(() -> {
                try {
                    cluster.submitTopology("early", upgrade, topology());
                } catch (Throwable t) {
                    failed[0] = t;
                }
            }, "test-upgrade");
            upgrading.start();
            try {
                waitFor(() -> PREPARED.stream().anyMatch(id -> !id.equals(first)),
                    "the new version's shell bolt prepared while the old version drains", 30);
                assertFalse(ACKED.contains(0), "the old version's drain has not ended");
                assertEquals(List.of(first), OPENED, "the new version's spout does not open before the drain ends");
                assertTrue(RECORDED.stream().allMatch(r -> r.endsWith(first)), "the new version executed nothing");
            } finally {
                release = true; // the old version's bolt acks id 0 at its next tick
            }
            upgrading.join(TimeUnit.SECONDS.toMillis(120));
            assertFalse(upgrading.isAlive(), "the upgrade returns");
            assertEquals(null, failed[0], "the upgrade succeeds");
            assertTrue(ACKED.contains(0), "the held tuple was acked by the old version");
            for (int id = 10; id < 20; id++) {
                SOURCE.add(id);
            }
            waitFor(() -> ACKED.size() == 20, "every id acked", 60);
            String second = OPENED.get(OPENED.size() - 1);
            for (int id = 10; id < 20; id++) {
                assertTrue(RECORDED.contains(id + " " + second), "id " + id + " went through the new version");
            }
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts("early", now);
        }
        waitFor(() -> pythonChildren() == 0, "no Python subprocess left", 30);
    }

    private static StormTopology topology() {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("words", new WordSpout());
        builder.setBolt("upper", new NotingUpperBolt(), 1).shuffleGrouping("words");
        builder.setBolt("record", new HoldingRecorder(), 1).shuffleGrouping("upper");
        return builder.createTopology();
    }

    static boolean pythonAvailable() {
        try {
            Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    private static long pythonChildren() {
        return ProcessHandle.current().descendants()
            .filter(p -> p.isAlive() && p.info().command().orElse("").contains("python")).count();
    }

    private static void waitFor(BooleanSupplier condition, String what, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + seconds + " s: " + what + " (acked " + ACKED + ", opened "
                    + OPENED + ", prepared " + PREPARED + ")");
            }
            Thread.sleep(5);
        }
    }

    /** Emits "w" + id for each id of {@link #SOURCE}, the id as message id; notes its topology id when it opens. */
    public static final class WordSpout extends BaseRichSpout {
        private transient SpoutOutputCollector collector;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            OPENED.add(context.getStormId());
        }

        @Override
        public void nextTuple() {
            Integer id = SOURCE.poll();
            if (id != null) {
                collector.emit(new Values("w" + id), id);
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
            declarer.declare(new Fields("word"));
        }
    }

    /** The tests' Python upper-caser ({@code upper_bolt.py}); notes its topology id once its subprocess answered. */
    public static final class NotingUpperBolt extends ShellBolt implements IRichBolt {
        public NotingUpperBolt() {
            super("python3", "upper_bolt.py");
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            super.prepare(conf, context, collector);
            PREPARED.add(context.getStormId());
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }

        @Override
        public Map<String, Object> getComponentConfiguration() {
            return null;
        }
    }

    /** Records each word with its topology id and acks it, except "W0", held until {@link #release} (at a tick). */
    public static final class HoldingRecorder extends BaseRichBolt {
        private transient OutputCollector collector;
        private transient String stormId;
        private transient Tuple held;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.stormId = context.getStormId();
        }

        @Override
        public void execute(Tuple tuple) {
            if (Constants.SYSTEM_TICK_STREAM_ID.equals(tuple.getSourceStreamId())) {
                if (held != null && release) {
                    collector.ack(held);
                    held = null;
                }
                return;
            }
            String word = tuple.getString(0);
            RECORDED.add(word.substring(1) + " " + stormId);
            if (word.equals("W0")) {
                held = tuple;
            } else {
                collector.ack(tuple);
            }
        }

        @Override
        public Map<String, Object> getComponentConfiguration() {
            return Map.of(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
