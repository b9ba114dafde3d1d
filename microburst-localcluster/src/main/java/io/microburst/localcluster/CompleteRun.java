package io.microburst.localcluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.ILocalCluster;
import org.apache.storm.Testing;
import org.apache.storm.Thrift;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.SpoutSpec;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.testing.CompletableSpout;
import org.apache.storm.testing.CompleteTopologyParam;
import org.apache.storm.testing.FixedTuple;
import org.apache.storm.testing.FixedTupleSpout;
import org.apache.storm.testing.MockedSources;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.Time;
import org.apache.storm.utils.Utils;

/**
 * {@code Testing.completeTopology}: runs a topology until every spout (each a {@link CompletableSpout}, or mocked
 * with fixed tuples) is exhausted, then kills it and returns every tuple each component emitted, by component, as a
 * capture bolt subscribed to all their streams received them.
 *
 * <p>Runs on the test's thread.
 */
public final class CompleteRun {
    private CompleteRun() {
    }

    public static Map<String, List<FixedTuple>> run(ILocalCluster cluster, StormTopology topology,
                                                    CompleteTopologyParam param) throws TException, InterruptedException {
        Testing.CapturedTopology<StormTopology> captured = Testing.captureTopology(topology);
        StormTopology runnable = captured.topology;
        mock(runnable, param.getMockedSources());
        List<CompletableSpout> spouts = completableSpouts(runnable);
        for (CompletableSpout spout : spouts) {
            spout.startup();
        }
        String name = param.getTopologyName() != null ? param.getTopologyName() : "topologytest-" + Utils.uuid();
        int timeoutMs = param.getTimeoutMs();
        cluster.submitTopology(name, param.getStormConf(), runnable);
        if (Time.isSimulating()) {
            cluster.advanceClusterTime(11);
        }
        Testing.whileTimeout(timeoutMs, () -> !Testing.isEvery(spouts, CompletableSpout::isExhausted),
            () -> pause(cluster));
        KillOptions now = new KillOptions();
        now.set_wait_secs(0);
        cluster.killTopologyWithOpts(name, now);
        Testing.whileTimeout(timeoutMs, () -> isListed(cluster, name), () -> pause(cluster));
        if (param.getCleanupState()) {
            for (CompletableSpout spout : spouts) {
                spout.clean();
            }
            return captured.capturer.getAndRemoveResults();
        }
        return captured.capturer.getAndClearResults();
    }

    private static void mock(StormTopology topology, MockedSources sources) {
        if (sources == null) {
            return;
        }
        Map<String, SpoutSpec> spouts = topology.get_spouts();
        for (Map.Entry<String, List<FixedTuple>> mocked : sources.getData().entrySet()) {
            SpoutSpec spec = spouts.get(mocked.getKey());
            if (spec == null) {
                throw new IllegalArgumentException("MockedSources names '" + mocked.getKey() + "', which is not a spout "
                    + "of the topology (its spouts: " + spouts.keySet() + ")");
            }
            spec.set_spout_object(Thrift.serializeComponentObject(new FixedTupleSpout(mocked.getValue())));
        }
    }

    private static List<CompletableSpout> completableSpouts(StormTopology topology) {
        List<CompletableSpout> spouts = new ArrayList<>();
        Map<String, SpoutSpec> specs = new LinkedHashMap<>(topology.get_spouts());
        for (Map.Entry<String, SpoutSpec> spec : specs.entrySet()) {
            Object spout = Thrift.deserializeComponentObject(spec.getValue().get_spout_object());
            if (!(spout instanceof CompletableSpout completable)) {
                throw new IllegalArgumentException("completeTopology needs every spout to be a CompletableSpout, or mocked "
                    + "with MockedSources: spout '" + spec.getKey() + "' is a " + spout.getClass().getName());
            }
            spouts.add(completable);
        }
        return spouts;
    }

    /** Lets the topology work: simulated time as Storm's {@code simulateWait}, else until idle or a millisecond. */
    private static void pause(ILocalCluster cluster) {
        try {
            if (Time.isSimulating()) {
                Testing.simulateWait(cluster);
            } else {
                Settle.idle(cluster);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the topology to complete", e);
        }
    }

    private static boolean isListed(ILocalCluster cluster, String name) {
        try {
            for (TopologySummary summary : cluster.getTopologySummaries()) {
                if (name.equals(summary.get_name())) {
                    return true;
                }
            }
            return false;
        } catch (TException e) {
            throw new IllegalStateException("Cannot list the cluster's topologies: " + e, e);
        }
    }
}
