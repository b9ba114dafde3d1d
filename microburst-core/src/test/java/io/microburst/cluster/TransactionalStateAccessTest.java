package io.microburst.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import io.microburst.MicroburstCluster;
import org.apache.storm.Config;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.shade.org.apache.zookeeper.CreateMode;
import org.apache.storm.shade.org.apache.zookeeper.KeeperException;
import org.apache.storm.shade.org.apache.zookeeper.Watcher;
import org.apache.storm.shade.org.apache.zookeeper.ZooDefs;
import org.apache.storm.shade.org.apache.zookeeper.ZooKeeper;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.operation.BaseFilter;
import org.apache.storm.trident.operation.builtin.Count;
import org.apache.storm.trident.testing.FixedBatchSpout;
import org.apache.storm.trident.testing.MemoryMapState;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

/**
 * Trident's transactional state lives in the cluster's in-process ZooKeeper; another local process that connects to
 * its port can neither read nor create anything, while the topology, holding the server's credentials, keeps its state.
 */
class TransactionalStateAccessTest {
    private static final String[] OUTSIDER = {"nobody:guess"};
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
    void unauthenticatedClientCannotReadOrCreateNodes() throws Exception {
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            TridentTopology trident = new TridentTopology();
            trident.newStream("words-tx", new FixedBatchSpout(new Fields("word"), 2, new Values("a"), new Values("b")))
                .groupBy(new Fields("word"))
                .persistentAggregate(new MemoryMapState.Factory(), new Count(), new Fields("count"))
                .newValuesStream().each(new Fields("word"), new Seen());
            Config conf = new Config();
            // What StormSubmitter adds: dropped, as Nimbus drops it, in favour of the state server's own credentials.
            conf.put(Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_SCHEME, "digest");
            conf.put(Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_PAYLOAD, "user:from-submitter");
            cluster.submitTopology("tx-access", conf, trident.build());
            @SuppressWarnings("unchecked")
            Map<String, Object> seen = (Map<String, Object>) JSONValue.parse(cluster.getTopologyConf("tx-access"));
            String address = ((List<?>) seen.get(Config.TRANSACTIONAL_ZOOKEEPER_SERVERS)).get(0) + ":"
                + seen.get(Config.TRANSACTIONAL_ZOOKEEPER_PORT);
            assertFalse(String.valueOf(seen.get(Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_PAYLOAD)).contains("microburst:"),
                "getTopologyConf shows the state server's secret: " + seen);

            // The topology, with the server's credentials, keeps its batch state: batches flow. Once they have, its
            // nodes (/transactional among them) exist, so the outsider's refusals below are about access, not absence.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (SEEN.size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(SEEN.containsAll(List.of("a", "b")), "words counted: " + SEEN);

            for (String[] auth : new String[][] {null, OUTSIDER}) {
                try (ZooKeeper outsider = connect(address, auth)) {
                    assertThrows(KeeperException.NoAuthException.class, () -> outsider.getChildren("/", false));
                    assertThrows(KeeperException.NoAuthException.class, () -> outsider.getData("/transactional", false,
                        null));
                    assertThrows(KeeperException.NoAuthException.class, () -> outsider.create("/intruder",
                        "x".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
                    assertThrows(KeeperException.NoAuthException.class, () -> outsider.create("/transactional/intruder",
                        "x".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
                }
            }
        }
    }

    private static ZooKeeper connect(String address, String[] auth) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(address, 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(30, TimeUnit.SECONDS)) {
            zk.close();
            throw new AssertionError("could not connect to " + address);
        }
        if (auth != null) {
            zk.addAuthInfo("digest", auth[0].getBytes(StandardCharsets.UTF_8));
        }
        return zk;
    }
}
