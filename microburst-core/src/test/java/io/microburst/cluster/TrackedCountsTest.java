package io.microburst.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import io.microburst.MicroburstConfig;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.testing.AckFailDelegate;
import org.apache.storm.testing.BoltTracker;
import org.apache.storm.testing.FeederSpout;
import org.apache.storm.testing.SpoutTracker;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.RegisteredGlobalState;
import org.junit.jupiter.api.Test;

/**
 * The counters of a tracked cluster as storm-server's {@code TrackedTopology.trackedWait} reads them: "spout-emitted",
 * then "transferred", then "processed", three reads at three instants. Between the read of "transferred" and that of
 * "processed" a tuple can be executed here; the test stops the topology at each step of one tree (the bolt holding
 * its tuple, then the spout's ack delegate holding the ack) so that the stale read is taken for certain.
 */
class TrackedCountsTest {
    private static final Map<String, CountDownLatch> LATCHES = new ConcurrentHashMap<>();

    @Test
    void aTransferredCountReadWhileATreeIsOutNeverEqualsALaterProcessedCount() throws Exception {
        String key = "tracked-counts-" + System.nanoTime();
        for (String step : new String[] {"bolt-in", "bolt-go", "ack-in", "ack-go"}) {
            LATCHES.put(key + step, new CountDownLatch(1));
        }
        try (MicroburstCluster cluster = new MicroburstCluster.Builder().withTracked().build()) {
            String id = cluster.getTrackedId();
            FeederSpout feeder = new FeederSpout(new Fields("word"));
            feeder.setAckFailDelegate(new HeldAck(key));
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("words", new SpoutTracker(feeder, id));
            builder.setBolt("held", new BoltTracker(new HeldBolt(key), id)).shuffleGrouping("words");
            Config conf = new Config();
            conf.put(MicroburstConfig.FUSION, false); // the bolt on a thread of its own, as most bolts are
            cluster.submitTopology("tracked-counts", conf, builder.createTopology());
            try {
                checkCounts(key, id, feeder);
            } finally {
                LATCHES.forEach((k, latch) -> latch.countDown()); // nothing held when the cluster stops
            }
        } finally {
            LATCHES.keySet().removeIf(k -> k.startsWith(key));
        }
    }

    private static void checkCounts(String key, String id, FeederSpout feeder) throws InterruptedException {
        feeder.feed(new Values("a"), 1);
        await(key + "bolt-in");
        waitFor(() -> count(id, "spout-emitted") == 1);
        int staleTransferred = count(id, "transferred"); // the tree is out: its bolt holds the tuple
        LATCHES.get(key + "bolt-go").countDown();
        await(key + "ack-in"); // the bolt acked; the spout is inside ack, not yet counted
        waitFor(() -> count(id, "processed") == 1); // the bolt's execute, counted as it returned
        assertNotEquals(staleTransferred, count(id, "processed"),
            "a transferred count read while a tree was out matched a processed count read before its ack");

        LATCHES.get(key + "ack-go").countDown();
        waitFor(() -> count(id, "processed") == 2);
        waitFor(() -> count(id, "transferred") == count(id, "processed"));
        assertEquals(2, count(id, "transferred"), "one tuple sent to the bolt, one ack sent to the spout");
    }

    @SuppressWarnings("unchecked")
    private static int count(String id, String name) {
        return ((Map<String, AtomicInteger>) RegisteredGlobalState.getState(id)).get(name).get();
    }

    private static void await(String latch) throws InterruptedException {
        assertTrue(LATCHES.get(latch).await(60, TimeUnit.SECONDS), "timed out waiting for " + latch);
    }

    private static void waitFor(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out");
            Thread.sleep(1);
        }
    }

    private static void pass(String key, String in, String go) {
        LATCHES.get(key + in).countDown();
        try {
            LATCHES.get(key + go).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Holds the spout's ack until the test lets it go. */
    static final class HeldAck implements AckFailDelegate {
        private final String key;

        HeldAck(String key) {
            this.key = key;
        }

        @Override
        public void ack(Object id) {
            pass(key, "ack-in", "ack-go");
        }

        @Override
        public void fail(Object id) {
        }
    }

    /** Holds its tuple until the test lets it go, then acks it. */
    static final class HeldBolt extends BaseRichBolt {
        private final String key;
        private OutputCollector collector;

        HeldBolt(String key) {
            this.key = key;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            pass(key, "bolt-in", "bolt-go");
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
