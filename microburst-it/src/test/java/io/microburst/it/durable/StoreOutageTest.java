package io.microburst.it.durable;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import io.microburst.MicroburstConfig;
import io.microburst.it.support.Await;
import io.microburst.it.support.Topologies;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.redis.state.RedisKeyValueStateProvider;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.state.StateFactory;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A state store that stops answering (redis-server paused with SIGSTOP, then resumed): checkpoints fail with the
 * store's error recorded in the topology's errors, nothing more is acked while it is away, the spout is held back by
 * max spout pending, and once it answers again every number is acked and counted: nothing is lost silently.
 */
class StoreOutageTest {
    private static final int NUMBERS = 20_000;
    private static final int MAX_PENDING = 500;

    @TempDir
    Path dir;

    @Test
    void aPausedStoreHoldsTheTopologyBackAndLosesNothing() throws Exception {
        try (RedisServer redis = RedisServer.startOrSkip(dir); ILocalCluster cluster = new MicroburstCluster()) {
            String scope = "outage-" + System.nanoTime();
            Map<String, Object> conf = new HashMap<>();
            conf.put(Config.TOPOLOGY_STATE_PROVIDER, RedisKeyValueStateProvider.class.getName());
            conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"jedisPoolConfig\": {\"host\": \"127.0.0.1\", \"port\": "
                    + redis.port() + ", \"timeout\": 500, \"database\": 0}}");
            conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 100);
            conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, MAX_PENDING);
            // A store outage makes each checkpoint (and each task restart) fail; give it room to come back.
            conf.put(MicroburstConfig.TASK_FAILURE_LIMIT, 1000);
            conf.put(MicroburstConfig.TASK_RESTART_BACKOFF_MS, 200);
            KafkaCountingTopology.CountingBolt.NAMESPACES.clear();
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("numbers", new NumberSpout(scope, NUMBERS), 1);
            builder.setBolt(KafkaCountingTopology.COUNTER, new KafkaCountingTopology.CountingBolt(), 2)
                    .fieldsGrouping("numbers", new Fields("value"));
            cluster.submitTopology(scope, conf, builder.createTopology());
            Await.until("a first checkpoint committed", () -> !NumberSpout.acked(scope).isEmpty(),
                    Duration.ofSeconds(60));

            redis.signal("STOP");
            try {
                Await.until("a checkpoint failure recorded", () -> !storeErrors(cluster, scope).isEmpty(),
                        Duration.ofSeconds(60), () -> NumberSpout.acked(scope).size() + " acked");
                int ackedWhilePaused = NumberSpout.acked(scope).size();
                Await.never("an ack while the store is paused",
                        () -> NumberSpout.acked(scope).size() != ackedWhilePaused, Duration.ofSeconds(2));
                assertTrue(ackedWhilePaused < NUMBERS, "the outage came too late to test anything");
                long emitted = NumberSpout.emitted(scope);
                long failed = NumberSpout.failed(scope);
                assertTrue(emitted - ackedWhilePaused - failed <= MAX_PENDING, "backpressure: emitted " + emitted
                        + ", acked " + ackedWhilePaused + ", failed " + failed + ", max pending " + MAX_PENDING);
            } finally {
                redis.signal("CONT");
            }
            Await.until("every number acked after the store came back",
                    () -> NumberSpout.acked(scope).size() == NUMBERS, Duration.ofSeconds(180),
                    () -> NumberSpout.acked(scope).size() + " acked");
            Topologies.killAndAwaitGone(cluster, scope);

            long[] counts = new long[NUMBERS];
            for (String namespace : new TreeSet<>(KafkaCountingTopology.CountingBolt.NAMESPACES)) {
                @SuppressWarnings("unchecked")
                KeyValueState<Long, Long> state = (KeyValueState<Long, Long>) StateFactory.getState(namespace, conf,
                        null);
                state.forEach(e -> counts[Math.toIntExact(e.getKey())] += e.getValue());
            }
            for (int i = 0; i < NUMBERS; i++) {
                assertTrue(counts[i] >= 1, "number " + i + " acked but not counted");
            }
        }
    }

    private static List<String> storeErrors(ILocalCluster cluster, String name) {
        try {
            for (TopologySummary summary : cluster.getTopologySummaries()) {
                if (summary.get_name().equals(name)) {
                    List<String> found = new java.util.ArrayList<>();
                    for (List<ErrorInfo> errors : cluster.getTopologyInfo(summary.get_id()).get_errors().values()) {
                        for (ErrorInfo error : errors) {
                            if (error.get_error().contains("JedisConnectionException")) {
                                found.add(error.get_error());
                            }
                        }
                    }
                    return found;
                }
            }
            return List.of();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
