package org.apache.storm;

import io.microburst.localcluster.CompleteRun;
import io.microburst.localcluster.TestTuples;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.ComponentCommon;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.StreamInfo;
import org.apache.storm.testing.CompleteTopologyParam;
import org.apache.storm.testing.FixedTuple;
import org.apache.storm.testing.MkClusterParam;
import org.apache.storm.testing.MkTupleParam;
import org.apache.storm.testing.TestJob;
import org.apache.storm.testing.TrackedTopology;
import org.apache.storm.testing.TupleCaptureBolt;
import org.apache.storm.thrift.TException;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.RegisteredGlobalState;
import org.apache.storm.utils.Time;
import org.apache.storm.utils.Utils;

/**
 * Storm's testing helpers, with storm-server's signatures, over Microburst's {@link LocalCluster}: clusters made for a
 * test body, {@link #completeTopology} (run a topology on fixed input to the end and read what each component
 * emitted), tracked topologies and {@link #trackedWait}, and small utilities (multisets, test tuples, timed waits).
 *
 * <p>Static methods, each on the test's thread.
 */
public class Testing {
    /** How long the waits here last unless told: {@code STORM_TEST_TIMEOUT_MS} from the environment, else 10 s. */
    public static final int TEST_TIMEOUT_MS = timeoutFromEnvironment();

    private static int timeoutFromEnvironment() {
        try {
            return Integer.parseInt(System.getenv("STORM_TEST_TIMEOUT_MS"));
        } catch (NumberFormatException e) {
            return 10_000;
        }
    }

    /** As {@link #whileTimeout(long, Condition, Runnable)} with {@link #TEST_TIMEOUT_MS}. */
    public static void whileTimeout(Condition condition, Runnable body) {
        whileTimeout(TEST_TIMEOUT_MS, condition, body);
    }

    /**
     * Runs {@code body} while {@code condition} holds.
     *
     * @throws AssertionError if it still holds after {@code timeoutMs}
     */
    public static void whileTimeout(long timeoutMs, Condition condition, Runnable body) {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (condition.exec()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("Test timed out (" + timeoutMs + "ms) " + condition);
            }
            body.run();
        }
    }

    public static <T> boolean isEvery(Collection<T> data, Predicate<T> pred) {
        return data.stream().allMatch(pred);
    }

    /** Runs {@code code} with Storm's simulated time on. */
    @Deprecated
    public static void withSimulatedTime(Runnable code) {
        try (Time.SimulatedTime time = new Time.SimulatedTime()) {
            code.run();
        }
    }

    private static LocalCluster cluster(MkClusterParam param, String trackId, boolean simulated) throws Exception {
        return new LocalCluster.Builder()
            .withSupervisors(param.getSupervisors() == null ? 2 : param.getSupervisors())
            .withPortsPerSupervisor(param.getPortsPerSupervisor() == null ? 3 : param.getPortsPerSupervisor())
            .withDaemonConf(param.getDaemonConf() == null ? new HashMap<>() : param.getDaemonConf())
            .withNimbusDaemon(param.isNimbusDaemon())
            .withTracked(trackId)
            .withSimulatedTime(simulated)
            .build();
    }

    private static void run(MkClusterParam param, String trackId, boolean simulated, TestJob code) {
        try (LocalCluster cluster = cluster(param, trackId, simulated)) {
            code.run(cluster);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    @Deprecated
    public static void withLocalCluster(TestJob code) {
        withLocalCluster(new MkClusterParam(), code);
    }

    /** Runs {@code code} with a cluster built from {@code param}, closed afterwards. */
    @Deprecated
    public static void withLocalCluster(MkClusterParam param, TestJob code) {
        run(param, null, false, code);
    }

    /**
     * A cluster from a map with Storm's keys: "daemon-conf", "supervisors", "ports-per-supervisor",
     * "supervisor-slot-port-min", "nimbus-daemon" ("inimbus" has no effect: there is no Nimbus daemon).
     */
    @SuppressWarnings("unchecked")
    @Deprecated
    public static ILocalCluster getLocalCluster(Map<String, Object> clusterConf) {
        Map<String, Object> daemonConf = (Map<String, Object>) clusterConf.get("daemon-conf");
        try {
            return new LocalCluster.Builder()
                .withSupervisors(((Number) clusterConf.getOrDefault("supervisors", 2)).intValue())
                .withDaemonConf(daemonConf == null ? new HashMap<>() : daemonConf)
                .withPortsPerSupervisor(((Number) clusterConf.getOrDefault("ports-per-supervisor", 3)).intValue())
                .withSupervisorSlotPortMin((Number) clusterConf.getOrDefault("supervisor-slot-port-min", 1024))
                .withNimbusDaemon((Boolean) clusterConf.getOrDefault("nimbus-daemon", false))
                .build();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    @Deprecated
    public static void withSimulatedTimeLocalCluster(TestJob code) {
        withSimulatedTimeLocalCluster(new MkClusterParam(), code);
    }

    /** As {@link #withLocalCluster(MkClusterParam, TestJob)}, with simulated time on. */
    @Deprecated
    public static void withSimulatedTimeLocalCluster(MkClusterParam param, TestJob code) {
        run(param, null, true, code);
    }

    @Deprecated
    public static void withTrackedCluster(TestJob code) {
        withTrackedCluster(new MkClusterParam(), code);
    }

    /** As {@link #withSimulatedTimeLocalCluster(MkClusterParam, TestJob)}, the cluster tracked. */
    @Deprecated
    public static void withTrackedCluster(MkClusterParam param, TestJob code) {
        run(param, Utils.uuid(), true, code);
    }

    /** One counter ("spout-emitted", "transferred", "processed") of the tracked cluster {@code id}. */
    @SuppressWarnings("unchecked")
    @Deprecated
    public static int globalAmt(String id, String key) {
        Map<String, AtomicInteger> counters = (Map<String, AtomicInteger>) RegisteredGlobalState.getState(id);
        if (counters == null || counters.get(key) == null) {
            throw new IllegalArgumentException("No tracked counter '" + key + "' for cluster '" + id + "'");
        }
        return counters.get(key).get();
    }

    /** {@link #captureTopology} made a {@link TrackedTopology} on {@code cluster}. */
    public static CapturedTopology<TrackedTopology> trackAndCaptureTopology(ILocalCluster cluster, StormTopology topology) {
        CapturedTopology<StormTopology> captured = captureTopology(topology);
        return new CapturedTopology<>(new TrackedTopology(captured.topology, cluster), captured.capturer);
    }

    /**
     * A copy of {@code topology} with one more bolt, the capturer, subscribed to every stream of every component
     * (direct streams directly, the others with a global grouping), so that it receives every tuple emitted.
     */
    public static CapturedTopology<StormTopology> captureTopology(StormTopology topology) {
        StormTopology copy = topology.deepCopy();
        Map<GlobalStreamId, Grouping> inputs = new HashMap<>();
        copy.get_spouts().forEach((id, spout) -> subscribe(inputs, id, spout.get_common()));
        copy.get_bolts().forEach((id, bolt) -> subscribe(inputs, id, bolt.get_common()));
        TupleCaptureBolt capturer = new TupleCaptureBolt();
        copy.put_to_bolts(Utils.uuid(), new Bolt(Thrift.serializeComponentObject(capturer),
            Thrift.prepareComponentCommon(inputs, new HashMap<>(), null)));
        return new CapturedTopology<>(copy, capturer);
    }

    private static void subscribe(Map<GlobalStreamId, Grouping> inputs, String component, ComponentCommon common) {
        for (Map.Entry<String, StreamInfo> stream : common.get_streams().entrySet()) {
            inputs.put(new GlobalStreamId(component, stream.getKey()),
                stream.getValue().is_direct() ? Thrift.prepareDirectGrouping() : Thrift.prepareGlobalGrouping());
        }
    }

    public static Map<String, List<FixedTuple>> completeTopology(ILocalCluster cluster, StormTopology topology)
        throws InterruptedException, TException {
        return completeTopology(cluster, topology, new CompleteTopologyParam());
    }

    /**
     * Runs {@code topology} on {@code cluster} until every spout is exhausted, then kills it; returns what each
     * component emitted, by component id ({@link CompleteRun}).
     *
     * @throws IllegalArgumentException if a spout is neither a {@code CompletableSpout} nor mocked
     * @throws AssertionError if the spouts are not exhausted within the parameter's timeout
     */
    public static Map<String, List<FixedTuple>> completeTopology(ILocalCluster cluster, StormTopology topology,
                                                                 CompleteTopologyParam param)
        throws TException, InterruptedException {
        return CompleteRun.run(cluster, topology, param);
    }

    /** With simulated time on, advances the cluster 10 seconds (on Microburst, waiting until it is idle). */
    public static void simulateWait(ILocalCluster cluster) throws InterruptedException {
        if (Time.isSimulating()) {
            cluster.advanceClusterTime(10);
        }
    }

    public static List<List<Object>> readTuples(Map<String, List<FixedTuple>> results, String componentId) {
        return readTuples(results, componentId, Utils.DEFAULT_STREAM_ID);
    }

    /** The values of the tuples {@code componentId} emitted on {@code streamId}, in the order captured. */
    public static List<List<Object>> readTuples(Map<String, List<FixedTuple>> results, String componentId,
                                                String streamId) {
        List<List<Object>> values = new ArrayList<>();
        for (FixedTuple tuple : results.getOrDefault(componentId, List.of())) {
            if (streamId.equals(tuple.stream)) {
                values.add(tuple.values);
            }
        }
        return values;
    }

    @Deprecated
    public static TrackedTopology mkTrackedTopology(ILocalCluster cluster, StormTopology topology) {
        return new TrackedTopology(topology, cluster);
    }

    public static void trackedWait(CapturedTopology<TrackedTopology> topo) {
        topo.topology.trackedWait();
    }

    public static void trackedWait(CapturedTopology<TrackedTopology> topo, Integer amt) {
        topo.topology.trackedWait(amt);
    }

    public static void trackedWait(CapturedTopology<TrackedTopology> topo, Integer amt, Integer timeoutMs) {
        topo.topology.trackedWait(amt, timeoutMs);
    }

    public static void trackedWait(TrackedTopology topo) {
        topo.trackedWait();
    }

    public static void trackedWait(TrackedTopology topo, Integer amt) {
        topo.trackedWait(amt);
    }

    public static void trackedWait(TrackedTopology topo, Integer amt, Integer timeoutMs) {
        topo.trackedWait(amt, timeoutMs);
    }

    public static void advanceClusterTime(ILocalCluster cluster, Integer secs) throws InterruptedException {
        advanceClusterTime(cluster, secs, 1);
    }

    public static void advanceClusterTime(ILocalCluster cluster, Integer secs, Integer step) throws InterruptedException {
        cluster.advanceClusterTime(secs, step);
    }

    /** How many times each element occurs in {@code c}. */
    public static <T> Map<T, Integer> multiset(Collection<T> c) {
        Map<T, Integer> counts = new HashMap<>();
        for (T t : c) {
            counts.merge(t, 1, Integer::sum);
        }
        return counts;
    }

    /** Whether {@code a} and {@code b} hold the same elements the same number of times, in any order. */
    public static <T> boolean multiseteq(Collection<T> a, Collection<T> b) {
        return multiset(a).equals(multiset(b));
    }

    public static Tuple testTuple(List<Object> values) {
        return testTuple(values, new MkTupleParam());
    }

    /** A tuple to pass to a bolt's {@code execute} in a unit test ({@link TestTuples}). */
    public static Tuple testTuple(List<Object> values, MkTupleParam param) {
        return TestTuples.make(values, param);
    }

    /** What {@link #whileTimeout} waits on. */
    public interface Condition {
        boolean exec();
    }

    /** A topology (or tracked topology) with the bolt that captures what its components emit. */
    public static final class CapturedTopology<T> {
        public final T topology;
        public final TupleCaptureBolt capturer;

        public CapturedTopology(T topology, TupleCaptureBolt capturer) {
            this.topology = topology;
            this.capturer = capturer;
        }
    }
}
