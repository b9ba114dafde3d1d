package org.apache.storm.testing;

import io.microburst.localcluster.Settle;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.ILocalCluster;
import org.apache.storm.Testing;
import org.apache.storm.Thrift;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.SpoutSpec;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.IRichBolt;
import org.apache.storm.topology.IRichSpout;
import org.apache.storm.utils.RegisteredGlobalState;

/**
 * A topology whose spouts and bolts count what they emit and process (storm-client's {@link SpoutTracker} and
 * {@link BoltTracker}, under the tracked cluster's id), so that a test can wait until the tuples it fed are fully
 * processed: {@link #trackedWait(int, int)}. Submit {@link #getTopology()} (or this object) to the tracked cluster it
 * was made for ({@code new LocalCluster.Builder().withTracked()}).
 *
 * <p>Threading: made and waited on by the test's thread; the counters are the cluster's, atomic.
 */
public class TrackedTopology {
    private final StormTopology topology;
    private final ILocalCluster cluster;
    /** The spout emits every wait so far has waited for; only the test's thread waits. */
    private final AtomicInteger waitedFor = new AtomicInteger();

    /**
     * @param origTopo the topology, left unchanged: a copy is instrumented
     * @param cluster a tracked cluster
     * @throws IllegalArgumentException if the cluster is not tracked
     */
    public TrackedTopology(StormTopology origTopo, ILocalCluster cluster) {
        String id = cluster.getTrackedId();
        if (id == null) {
            throw new IllegalArgumentException("TrackedTopology needs a tracked cluster: build it with "
                + "new LocalCluster.Builder().withTracked()");
        }
        this.cluster = cluster;
        this.topology = origTopo.deepCopy();
        for (Bolt bolt : topology.get_bolts().values()) {
            IRichBolt tracked = new BoltTracker((IRichBolt) Thrift.deserializeComponentObject(bolt.get_bolt_object()), id);
            bolt.set_bolt_object(Thrift.serializeComponentObject(tracked));
        }
        for (SpoutSpec spout : topology.get_spouts().values()) {
            IRichSpout tracked = new SpoutTracker((IRichSpout) Thrift.deserializeComponentObject(spout.get_spout_object()), id);
            spout.set_spout_object(Thrift.serializeComponentObject(tracked));
        }
    }

    public StormTopology getTopology() {
        return topology;
    }

    public ILocalCluster getCluster() {
        return cluster;
    }

    /** Waits until one more spout tuple is fully processed. */
    public void trackedWait() {
        trackedWait(1, Testing.TEST_TIMEOUT_MS);
    }

    /** Waits until {@code amt} more spout tuples are fully processed. */
    public void trackedWait(int amt) {
        trackedWait(amt, Testing.TEST_TIMEOUT_MS);
    }

    /**
     * Waits until the spouts have emitted {@code amt} more tuples than at the end of the last wait and every tuple
     * sent was processed (sent and processed counts equal); between checks, waits for the cluster to be idle and,
     * with simulated time on, advances it by a second (so timeouts and ticks a tuple waits for come).
     *
     * @throws AssertionError naming the counts if that does not happen within {@code timeoutMs}
     */
    public void trackedWait(int amt, int timeoutMs) {
        int target = waitedFor.get() + amt;
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (!settled(target)) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("Test timed out (" + timeoutMs + " ms) waiting for " + target
                    + " spout tuples to be fully processed: emitted " + globalAmt("spout-emitted") + ", transferred "
                    + globalAmt("transferred") + ", processed " + globalAmt("processed"));
            }
            Settle.step(cluster, () -> settled(target));
        }
        waitedFor.set(target);
    }

    /**
     * Reads "processed" before "transferred": a tuple is counted as transferred before it is processed, so at any
     * instant processed is at most transferred, and transferred only grows; a processed count read first that equals
     * the transferred count read after it therefore proves that both were equal at the first read. Read the other
     * way round (as storm-server's wait does), a bolt that processes what was sent between the two reads makes the
     * counts look settled while its own emits are still on their way.
     */
    private boolean settled(int target) {
        if (globalAmt("spout-emitted") != target) {
            return false;
        }
        int processed = globalAmt("processed");
        return processed == globalAmt("transferred");
    }

    /**
     * One counter of the tracked cluster, over all its topologies.
     *
     * @param key "spout-emitted", "transferred" or "processed"
     */
    @SuppressWarnings("unchecked")
    public int globalAmt(String key) {
        Object state = RegisteredGlobalState.getState(cluster.getTrackedId());
        if (!(state instanceof Map)) {
            throw new IllegalStateException("The tracked cluster '" + cluster.getTrackedId() + "' is closed");
        }
        AtomicInteger counter = ((Map<String, AtomicInteger>) state).get(key);
        if (counter == null) {
            throw new IllegalArgumentException("No tracked counter '" + key
                + "': use spout-emitted, transferred or processed");
        }
        return counter.get();
    }
}
