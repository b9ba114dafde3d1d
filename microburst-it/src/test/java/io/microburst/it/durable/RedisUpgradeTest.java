package io.microburst.it.durable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import io.microburst.cluster.upgrade.UpgradeOptions;
import io.microburst.it.support.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.Config;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.redis.state.RedisKeyValueStateProvider;
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
import redis.clients.jedis.Jedis;

/**
 * An upgrade carries storm-redis state: a stateful counting topology whose {@code topology.state.provider} is
 * storm-redis's {@link RedisKeyValueStateProvider}, on a real redis-server, upgraded while its spout keeps emitting to a
 * second version (new bolt logic, one executor for the bolt's two tasks). The new version's tasks open the same
 * namespaces in Redis as the old one's, and in the committed state every key's count equals the number of ids sent
 * with it, every id counted exactly once (nothing lost, nothing counted twice). Skipped, saying how to install it, where
 * redis-server is missing. {@code -Dmicroburst.upgrade.repeat=20} runs it 20 times, each on a fresh redis-server.
 */
class RedisUpgradeTest {
    private static final int IDS = 3000;
    private static final int KEYS = 7;
    static final Queue<Integer> SOURCE = new ConcurrentLinkedQueue<>();
    static final Set<Integer> ACKED = ConcurrentHashMap.newKeySet();
    /** The namespaces each version's tasks opened their state under ({@code component-task}, as Storm names them). */
    static final Map<Integer, Set<String>> NAMESPACES = new ConcurrentHashMap<>();
    static final AtomicLong V2_EXECUTES = new AtomicLong();

    @TempDir
    Path dir;

    @Test
    void upgradeUnderLoadCarriesRedisState() throws Exception {
        int repeat = Integer.getInteger("microburst.upgrade.repeat", 1);
        for (int i = 0; i < repeat; i++) {
            try (RedisServer redis = RedisServer.startOrSkip(Files.createDirectories(dir.resolve("redis-" + i)))) {
                runOnce(redis.port());
            }
        }
    }

    private static void runOnce(int port) throws Exception {
        SOURCE.clear();
        ACKED.clear();
        NAMESPACES.clear();
        V2_EXECUTES.set(0);
        for (int i = 0; i < IDS; i++) {
            SOURCE.add(i);
        }
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_STATE_PROVIDER, RedisKeyValueStateProvider.class.getName());
        conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"jedisPoolConfig\": {\"host\": \"127.0.0.1\", \"port\": "
            + port + ", \"timeout\": 5000, \"database\": 0}}");
        conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 50);
        conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 100);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("redis-counts", conf, topology(new CountBolt(), 2));
            Await.until("a third of the ids acked by the first version", () -> ACKED.size() >= IDS / 3,
                Duration.ofSeconds(60), () -> ACKED.size() + " acked");
            String firstId = cluster.getTopologySummaryByName("redis-counts").get_id();

            Map<String, Object> upgrade = new HashMap<>(conf);
            upgrade.put(UpgradeOptions.UPGRADE, true);
            upgrade.put(UpgradeOptions.WAIT_SECS, 30);
            cluster.submitTopology("redis-counts", upgrade, topology(new CountBoltV2(), 1));
            assertTrue(ACKED.size() < IDS, "upgraded under load: the spout had ids left to send");
            TopologySummary upgraded = cluster.getTopologySummaryByName("redis-counts");
            assertNotEquals(firstId, upgraded.get_id());
            assertTrue(upgraded.get_sched_status().startsWith("upgraded to version 2 (" + firstId + " -> "),
                upgraded.get_sched_status());
            Await.until("every id acked", () -> ACKED.size() == IDS, Duration.ofSeconds(120),
                () -> ACKED.size() + " acked");
            assertTrue(V2_EXECUTES.get() > 0, "the second version counted");
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts("redis-counts", now);
        }

        Set<String> first = NAMESPACES.get(1);
        assertEquals(2, first.size(), "the first version's namespaces: " + first);
        assertEquals(first, NAMESPACES.get(2), "the second version opens the first version's namespaces");
        try (Jedis jedis = new Jedis("127.0.0.1", port)) {
            for (String key : jedis.keys("count*")) {
                assertTrue(first.stream().anyMatch(key::startsWith), "Redis holds no other namespace of the bolt: "
                    + key + " (the first version's: " + first + ")");
            }
        }
        Map<String, Long> counted = new HashMap<>();
        for (String namespace : first) {
            @SuppressWarnings("unchecked")
            KeyValueState<String, Long> state = (KeyValueState<String, Long>) StateFactory.getState(namespace, conf,
                null);
            state.forEach(e -> counted.merge(e.getKey(), e.getValue(), Long::sum));
        }
        List<String> wrong = new ArrayList<>();
        for (int id = 0; id < IDS; id++) {
            if (counted.getOrDefault("id-" + id, 0L) != 1L) {
                wrong.add("id-" + id + ": " + counted.getOrDefault("id-" + id, 0L));
            }
        }
        assertTrue(wrong.isEmpty(), wrong.size() + " ids not counted exactly once in the final state, among them "
            + wrong.stream().limit(10).toList());
        for (int k = 0; k < KEYS; k++) {
            long sent = (IDS - k + KEYS - 1) / KEYS;
            assertEquals(sent, counted.getOrDefault("key-" + k, 0L), "key " + k + ": its count equals the ids sent");
        }
    }

    private static StormTopology topology(CountBolt bolt, int executors) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("ids", new ReplayingSpout());
        builder.setBolt("count", bolt, executors).setNumTasks(2).fieldsGrouping("ids", new Fields("key"));
        return builder.createTopology();
    }

    /** Emits the ids of {@link #SOURCE} with their key; a failed id goes back to it, so any version replays it. */
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
                collector.emit(new Values(id, id % KEYS), id);
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
            declarer.declare(new Fields("id", "key"));
        }
    }

    /** The first version: counts each id and each key in its state. */
    static class CountBolt extends BaseStatefulBolt<KeyValueState<String, Long>> {
        private transient KeyValueState<String, Long> state;
        transient OutputCollector collector;

        int version() {
            return 1;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            NAMESPACES.computeIfAbsent(version(), v -> ConcurrentHashMap.newKeySet())
                .add(context.getThisComponentId() + "-" + context.getThisTaskId());
        }

        @Override
        public void initState(KeyValueState<String, Long> state) {
            this.state = state;
        }

        @Override
        public void execute(Tuple input) {
            int id = input.getInteger(0);
            state.put("id-" + id, state.get("id-" + id, 0L) + 1);
            state.put("key-" + input.getInteger(1), state.get("key-" + input.getInteger(1), 0L) + 1);
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

    /** The second version: counts the same way, and also emits each id with a suffix. */
    static final class CountBoltV2 extends CountBolt {
        @Override
        int version() {
            return 2;
        }

        @Override
        void counted(Tuple input) {
            V2_EXECUTES.incrementAndGet();
            collector.emit(input, new Values(input.getInteger(0) + "-v2"));
        }
    }
}
