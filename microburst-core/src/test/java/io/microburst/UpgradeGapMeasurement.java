package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.cluster.upgrade.UpgradeOptions;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.storm.Config;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
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
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures upgrades, not a timed test (behind {@code -Dmicroburst.long=true}): a stateful counting topology on the
 * embedded RocksDB store under a steady load from a spout that replays what fails, upgraded 20 times in a row to
 * alternating versions (the second changes the bolt's logic and its executor count). Reports per upgrade the output
 * gap (the longest time between two acks around the upgrade), the gap the upgrade recorded, and at the end the ids
 * lost and counted twice in the state, the heap after GC and the live threads, into
 * {@code target/upgrade-gaps.txt}; and per upgrade its phases as the upgrade logs them (check, drain, final
 * checkpoint, stop old, state hand-over, start new) with, from the components' own stamps, when the new version's
 * spout opened and first emitted, its bolt's state was initialized, its first checkpoint prepared and committed.
 */
@EnabledIfSystemProperty(named = "microburst.long", matches = "true")
class UpgradeGapMeasurement {
    static final int UPGRADES = Integer.getInteger("microburst.upgrade.count", 20);
    static final AtomicInteger NEXT = new AtomicInteger();
    static final Queue<Integer> REPLAY = new ConcurrentLinkedQueue<>();
    static final Set<Integer> ACKED = ConcurrentHashMap.newKeySet();
    static final AtomicLongArray ACK_NANOS = new AtomicLongArray(1 << 22);
    static final AtomicInteger ACKS = new AtomicInteger();
    /** Each version's spout (by storm id) gets the next index; per index its first and last ack and emit. */
    static final Map<String, Integer> VERSIONS = new ConcurrentHashMap<>();
    static final AtomicLongArray FIRST_ACK = new AtomicLongArray(256);
    static final AtomicLongArray LAST_ACK = new AtomicLongArray(256);
    static final AtomicLongArray FIRST_EMIT = new AtomicLongArray(256);
    static final AtomicLongArray LAST_EMIT = new AtomicLongArray(256);
    /** Per version: its spout opened, its bolt's first initState, prePrepare and preCommit (any task). */
    static final AtomicLongArray OPENED = new AtomicLongArray(256);
    static final AtomicLongArray FIRST_INIT = new AtomicLongArray(256);
    static final AtomicLongArray FIRST_PREPARE = new AtomicLongArray(256);
    static final AtomicLongArray FIRST_COMMIT = new AtomicLongArray(256);
    static volatile boolean emitting = true;

    @TempDir
    Path dir;

    @Test
    void twentyUpgrades() throws Exception {
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_STATE_PROVIDER, "io.microburst.state.RocksDbKeyValueStateProvider");
        conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"directory\": \"" + dir.resolve("state") + "\"}");
        conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 100);
        conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 2000);
        List<String> lines = new ArrayList<>();
        List<Long> gaps = new ArrayList<>();
        List<Long> windows = new ArrayList<>();
        List<Long> paused = new ArrayList<>();
        long[] heap = new long[2];
        int[] threads = new int[2];
        try (UpgradeLog log = new UpgradeLog(); MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("counts", conf, topology(false));
            awaitAcks(5_000);
            int steadyFrom = ACKS.get();
            long steadyStart = System.nanoTime();
            awaitAcks(steadyFrom + 4_000);
            lines.add("without an upgrade, the longest time between two acks over " + (ACKS.get() - steadyFrom)
                + " acks: " + ms(longestGap(steadyFrom, ACKS.get(), steadyStart)) + " ms (acks follow checkpoints)");
            for (int i = 0; i < UPGRADES; i++) {
                if (i == 1) {
                    heap[0] = heapAfterGc();
                    threads[0] = Thread.activeCount();
                }
                Map<String, Object> next = new HashMap<>(conf);
                next.put(UpgradeOptions.UPGRADE, true);
                int acksBefore = ACKS.get();
                long start = System.nanoTime();
                cluster.submitTopology("counts", next, topology(i % 2 == 0));
                awaitAcks(ACKS.get() + 2_000);
                long window = longestGap(acksBefore, ACKS.get(), start);
                windows.add(window);
                // the spout of version i (0 is the first) acked last before the upgrade, version i + 1's first after
                long gap = FIRST_ACK.get(i + 1) - LAST_ACK.get(i);
                gaps.add(gap);
                long pause = FIRST_EMIT.get(i + 1) - LAST_EMIT.get(i);
                paused.add(pause);
                String recorded = cluster.getTopologySummaryByName("counts").get_sched_status();
                lines.add("upgrade " + (i + 1) + ": output gap (old version's last ack -> new version's first) "
                    + ms(gap) + " ms; source paused (last emit -> first) " + ms(pause) + " ms; longest time between "
                    + "two acks from the upgrade call to 2 000 acks later " + ms(window) + " ms; recorded "
                    + recorded.substring(recorded.indexOf("output gap")) + "; after the old version's last ack, the new"
                    + " one's spout opened at " + after(OPENED, i) + ", first emitted " + after(FIRST_EMIT, i)
                    + ", bolt's first initState " + after(FIRST_INIT, i) + ", prePrepare " + after(FIRST_PREPARE, i)
                    + ", preCommit " + after(FIRST_COMMIT, i) + " ms");
                lines.add("  phases: " + log.last());
            }
            heap[1] = heapAfterGc();
            threads[1] = Thread.activeCount();
            emitting = false;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while ((!REPLAY.isEmpty() || ACKED.size() < NEXT.get()) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts("counts", now);
        }
        Map<String, Long> counted = new HashMap<>();
        for (int task = 1; task <= 20; task++) {
            @SuppressWarnings("unchecked")
            KeyValueState<String, Long> state = (KeyValueState<String, Long>) StateFactory.getState("count-" + task,
                conf, null);
            state.forEach(e -> counted.merge(e.getKey(), e.getValue(), Long::sum));
        }
        long lost = ACKED.stream().filter(id -> !counted.containsKey("id-" + id)).count();
        long twice = counted.values().stream().filter(c -> c > 1).count();
        lines.add("ids emitted " + NEXT.get() + ", acked " + ACKED.size() + ", lost " + lost + ", counted more than once "
            + twice);
        lines.add("over " + UPGRADES + " upgrades, median / max: output gap " + medianMax(gaps) + "; source paused "
            + medianMax(paused) + "; longest time between two acks around the upgrade " + medianMax(windows));
        lines.add("heap after GC after the first upgrade " + heap[0] / 1024 + " KiB, after the last " + heap[1] / 1024
            + " KiB; live threads " + threads[0] + " then " + threads[1]);
        lines.forEach(System.out::println);
        Files.write(Path.of("target", "upgrade-gaps.txt"), lines);
        assertEquals(0, lost, "ids lost");
    }

    /**
     * The upgrade's own log line at INFO, where it says where its time went (the phases up to the new version's
     * activation); the measurement adds what follows from its components' stamps.
     */
    static final class UpgradeLog extends org.apache.logging.log4j.core.appender.AbstractAppender
        implements AutoCloseable {
        private final org.apache.logging.log4j.core.Logger logger = (org.apache.logging.log4j.core.Logger)
            org.apache.logging.log4j.LogManager.getLogger("io.microburst.cluster.upgrade.TopologyUpgrade");
        private final org.apache.logging.log4j.Level level = logger.getLevel();
        private volatile String last = "none logged";

        UpgradeLog() {
            super("upgrade-phases", null, null, true, org.apache.logging.log4j.core.config.Property.EMPTY_ARRAY);
            start();
            logger.addAppender(this);
            logger.setLevel(org.apache.logging.log4j.Level.INFO);
        }

        @Override
        public void append(org.apache.logging.log4j.core.LogEvent event) {
            String message = event.getMessage().getFormattedMessage();
            int from = message.lastIndexOf(" (");
            last = from < 0 ? message : message.substring(from + 2, message.length() - 1);
        }

        String last() {
            return last;
        }

        @Override
        public void close() {
            logger.removeAppender(this);
            logger.setLevel(level);
            stop();
        }
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    /** Milliseconds from version {@code old}'s last ack to version old + 1's stamp in {@code stamps}. */
    private static long after(AtomicLongArray stamps, int old) {
        return ms(stamps.get(old + 1) - LAST_ACK.get(old));
    }

    private static String medianMax(List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        return ms(sorted.get(sorted.size() / 2)) + " / " + ms(sorted.get(sorted.size() - 1)) + " ms";
    }

    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** The longest time between two consecutive acks from {@code from} on, counting from {@code start}. */
    private static long longestGap(int from, int to, long start) {
        long longest = 0;
        long previous = start;
        for (int i = from; i < to && i < ACK_NANOS.length(); i++) {
            long t = ACK_NANOS.get(i);
            if (t != 0) {
                longest = Math.max(longest, t - previous);
                previous = Math.max(previous, t);
            }
        }
        return longest;
    }

    private static void awaitAcks(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (ACKS.get() < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + ACKS.get() + " acks");
            }
            Thread.sleep(2);
        }
    }

    private static StormTopology topology(boolean second) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("ids", new SteadySpout());
        builder.setBolt("count", second ? new SuffixCountBolt() : new CountBolt(), second ? 4 : 2).setNumTasks(4)
            .shuffleGrouping("ids");
        return builder.createTopology();
    }

    /** Emits increasing ids, replaying failed ones first; records when each ack arrives. */
    static final class SteadySpout extends BaseRichSpout {
        private transient SpoutOutputCollector collector;
        private transient int version;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            synchronized (VERSIONS) {
                version = VERSIONS.computeIfAbsent(context.getStormId(), id -> VERSIONS.size());
            }
            OPENED.compareAndSet(version, 0, System.nanoTime());
        }

        @Override
        public void nextTuple() {
            Integer id = REPLAY.poll();
            if (id == null && emitting) {
                id = NEXT.getAndIncrement();
            }
            if (id != null) {
                collector.emit(new Values(id), id);
                stamp(FIRST_EMIT, LAST_EMIT);
            }
        }

        @Override
        public void ack(Object msgId) {
            int i = ACKS.getAndIncrement();
            if (i < ACK_NANOS.length()) {
                ACK_NANOS.set(i, System.nanoTime());
            }
            ACKED.add((Integer) msgId);
            stamp(FIRST_ACK, LAST_ACK);
        }

        /** This version's first and last time (the spout's own thread is the only writer of its slots). */
        private void stamp(AtomicLongArray first, AtomicLongArray last) {
            long now = System.nanoTime();
            first.compareAndSet(version, 0, now);
            last.set(version, now);
        }

        @Override
        public void fail(Object msgId) {
            REPLAY.add((Integer) msgId);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id"));
        }
    }

    /** Counts each id in its state. */
    static class CountBolt extends BaseStatefulBolt<KeyValueState<String, Long>> {
        transient KeyValueState<String, Long> state;
        transient OutputCollector collector;
        transient int version;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            synchronized (VERSIONS) {
                version = VERSIONS.computeIfAbsent(context.getStormId(), id -> VERSIONS.size());
            }
        }

        @Override
        public void initState(KeyValueState<String, Long> state) {
            this.state = state;
            FIRST_INIT.compareAndSet(version, 0, System.nanoTime());
        }

        @Override
        public void prePrepare(long txid) {
            FIRST_PREPARE.compareAndSet(version, 0, System.nanoTime());
        }

        @Override
        public void preCommit(long txid) {
            FIRST_COMMIT.compareAndSet(version, 0, System.nanoTime());
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

    /** The other version: the same count, and an anchored emit with a suffix. */
    static final class SuffixCountBolt extends CountBolt {
        @Override
        public void execute(Tuple input) {
            collector.emit(input, new Values(input.getInteger(0) + "-v2"));
            super.execute(input);
        }
    }
}
