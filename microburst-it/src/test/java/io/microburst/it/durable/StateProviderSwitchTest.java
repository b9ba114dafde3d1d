package io.microburst.it.durable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import io.microburst.it.support.Await;
import io.microburst.it.support.Topologies;
import io.microburst.state.RocksDbKeyValueStateProvider;
import io.microburst.state.RocksDbStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.redis.state.RedisKeyValueStateProvider;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.state.StateFactory;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One stateful topology, two providers chosen by configuration alone: the embedded RocksDB store and storm-redis's
 * RedisKeyValueStateProvider on a real redis-server. Each is run twice (a second submission stands for a restart):
 * the second run must start from the first run's committed counts.
 */
class StateProviderSwitchTest {
    private static final int NUMBERS = 2_000;
    private static final AtomicInteger RUNS = new AtomicInteger();

    @TempDir
    Path dir;

    @Test
    void rocksDbProvider() throws Exception {
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_STATE_PROVIDER, RocksDbKeyValueStateProvider.class.getName());
        conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"directory\": \"" + dir.resolve("state") + "\"}");
        try {
            runTwiceAndCheck("rocksdb", conf);
        } finally {
            RocksDbStore.close(dir.resolve("state"));
        }
    }

    @Test
    void redisProviderByConfigurationAlone() throws Exception {
        try (RedisServer redis = RedisServer.startOrSkip(dir)) {
            Map<String, Object> conf = new HashMap<>();
            conf.put(Config.TOPOLOGY_STATE_PROVIDER, RedisKeyValueStateProvider.class.getName());
            conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"jedisPoolConfig\": {\"host\": \"127.0.0.1\", \"port\": "
                    + redis.port() + ", \"timeout\": 5000, \"database\": 0}}");
            runTwiceAndCheck("redis", conf);
        }
    }

    private static void runTwiceAndCheck(String name, Map<String, Object> conf) throws Exception {
        KafkaCountingTopology.CountingBolt.NAMESPACES.clear();
        try (ILocalCluster cluster = new MicroburstCluster()) {
            for (int run = 1; run <= 2; run++) {
                String scope = name + "-" + RUNS.incrementAndGet();
                TopologyBuilder builder = new TopologyBuilder();
                builder.setSpout("numbers", new NumberSpout(scope, NUMBERS), 1);
                builder.setBolt(KafkaCountingTopology.COUNTER, new KafkaCountingTopology.CountingBolt(), 2)
                        .fieldsGrouping("numbers", new Fields("value"));
                Map<String, Object> topologyConf = new HashMap<>(conf);
                topologyConf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 100);
                cluster.submitTopology(scope, topologyConf, builder.createTopology());
                // A number is acked only after the checkpoint that counted it was committed.
                Await.until("every number of " + scope + " acked", () -> NumberSpout.acked(scope).size() == NUMBERS,
                        Duration.ofSeconds(120), () -> NumberSpout.acked(scope).size() + " acked");
                Topologies.killAndAwaitGone(cluster, scope);
            }
        }

        Set<String> namespaces = new TreeSet<>(KafkaCountingTopology.CountingBolt.NAMESPACES);
        assertEquals(2, namespaces.size(), namespaces.toString());
        long[] counts = new long[NUMBERS];
        for (String namespace : namespaces) {
            @SuppressWarnings("unchecked")
            KeyValueState<Long, Long> state = (KeyValueState<Long, Long>) StateFactory.getState(namespace, conf, null);
            state.forEach(e -> counts[Math.toIntExact(e.getKey())] += e.getValue());
        }
        long total = 0;
        for (int i = 0; i < NUMBERS; i++) {
            assertTrue(counts[i] >= 2, "number " + i + " counted " + counts[i] + " times in two runs (" + name + ")");
            total += counts[i];
        }
        System.out.println(name + ": " + NUMBERS + " numbers, two runs, " + (total - 2L * NUMBERS) + " duplicates");
    }
}
