package io.microburst.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.operation.BaseFilter;
import org.apache.storm.trident.operation.builtin.Count;
import org.apache.storm.trident.testing.FixedBatchSpout;
import org.apache.storm.trident.testing.MemoryMapState;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * A Trident topology submitted with a configuration read from Storm's files (defaults.yaml sets
 * {@code transactional.zookeeper.servers} to null, meaning unset) keeps its transactional state in the cluster's own
 * ZooKeeper; before, the null key counted as set, and the topology's coordinators dialled localhost:2181 for ever.
 */
class TransactionalStateUnsetKeyTest {
    static final Set<String> SEEN = ConcurrentHashMap.newKeySet();

    /** Notes each word whose count the state reports. */
    public static class Seen extends BaseFilter {
        @Override
        public boolean isKeep(TridentTuple tuple) {
            SEEN.add(tuple.getString(0));
            return true;
        }
    }

    @Test
    void aNullTransactionalServersKeyGetsTheClustersStateServer() throws Exception {
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            TridentTopology trident = new TridentTopology();
            trident.newStream("words-unset", new FixedBatchSpout(new Fields("word"), 2, new Values("c"), new Values("d")))
                .groupBy(new Fields("word"))
                .persistentAggregate(new MemoryMapState.Factory(), new Count(), new Fields("count"))
                .newValuesStream().each(new Fields("word"), new Seen());
            Map<String, Object> conf = new Config();
            conf.putAll(Utils.readStormConfig());
            assertTrue(conf.containsKey(Config.TRANSACTIONAL_ZOOKEEPER_SERVERS)
                && conf.get(Config.TRANSACTIONAL_ZOOKEEPER_SERVERS) == null, "Storm's defaults changed");
            conf.put(Config.TOPOLOGY_TRIDENT_BATCH_EMIT_INTERVAL_MILLIS, 20);
            cluster.submitTopology("tx-unset", conf, trident.build());
            @SuppressWarnings("unchecked")
            Map<String, Object> seen = (Map<String, Object>) JSONValue.parse(cluster.getTopologyConf("tx-unset"));
            assertEquals(List.of("127.0.0.1"), seen.get(Config.TRANSACTIONAL_ZOOKEEPER_SERVERS), "the state server");

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!SEEN.containsAll(List.of("c", "d")) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(SEEN.containsAll(List.of("c", "d")), "words counted: " + SEEN);
        }
    }
}
