package io.microburst.cli.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.SubmitOptions;
import org.apache.storm.generated.TopologyInitialStatus;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.thrift.TException;
import org.junit.jupiter.api.Test;

/** LocalNimbus against a recording cluster: what it forwards, how it merges configuration, what it refuses. */
class LocalNimbusTest {
    /** One call the cluster received. */
    private record Call(String method, List<Object> args) {
    }

    private final List<Call> calls = new ArrayList<>();
    private final List<TopologySummary> running = new ArrayList<>();
    private final ILocalCluster cluster = (ILocalCluster) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {ILocalCluster.class}, (proxy, method, args) -> {
                calls.add(new Call(method.getName(), args == null ? List.of() : List.of(args)));
                return method.getName().equals("getTopologySummaries") ? List.copyOf(running) : null;
            });
    private final LocalNimbus nimbus = new LocalNimbus(cluster, Map.of("from.cli", 7, "shared", "cli"));

    @Test
    void submitParsesTheJsonConfAndMergesOverridesOverIt() throws TException {
        StormTopology topology = new StormTopology();

        nimbus.submitTopology("t1", "in-process-upload-1.jar",
                "{\"shared\":\"main\",\"topology.workers\":3,\"nested\":{\"a\":[1,2]}}", topology);

        Call call = calls.get(0);
        assertEquals("submitTopology", call.method());
        assertEquals("t1", call.args().get(0));
        assertEquals(Map.of("shared", "cli", "from.cli", 7, "topology.workers", 3,
                "nested", Map.of("a", List.of(1, 2))), call.args().get(1));
        assertSame(topology, call.args().get(2));
        assertEquals(Set.of("t1"), nimbus.submittedTopologies());
    }

    @Test
    void submitWithOptionsPassesTheOptionsOn() throws TException {
        SubmitOptions options = new SubmitOptions(TopologyInitialStatus.INACTIVE);

        nimbus.submitTopologyWithOpts("t2", "loc", "{}", new StormTopology(), options);

        Call call = calls.get(0);
        assertEquals("submitTopologyWithOpts", call.method());
        assertEquals(Map.of("from.cli", 7, "shared", "cli"), call.args().get(1));
        assertSame(options, call.args().get(3));
    }

    @Test
    void malformedConfIsAnInvalidTopologyAndNothingIsSubmitted() {
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class,
                () -> nimbus.submitTopology("t", "loc", "{not json", new StormTopology()));

        assertTrue(e.get_msg().contains("not valid JSON"), e.get_msg());
        assertThrows(InvalidTopologyException.class,
                () -> nimbus.submitTopology("t", "loc", "[1,2]", new StormTopology()));
        assertTrue(calls.isEmpty());
        assertTrue(nimbus.submittedTopologies().isEmpty());
    }

    @Test
    void jarUploadIsAcceptedAndDiscarded() throws TException {
        String location = nimbus.beginFileUpload();
        nimbus.uploadChunk(location, ByteBuffer.wrap(new byte[1000]));
        nimbus.uploadChunk(location, ByteBuffer.wrap(new byte[24]));
        nimbus.finishFileUpload(location);

        assertEquals(1024, nimbus.uploadedJarBytes());
        assertFalse(location.equals(nimbus.beginFileUpload()), "each upload gets its own location");
        assertThrows(TException.class, () -> nimbus.finishFileUpload(location));
        assertThrows(TException.class, () -> nimbus.uploadChunk("elsewhere", ByteBuffer.allocate(1)));
        assertTrue(calls.isEmpty(), "the cluster never sees the jar");
    }

    @Test
    void topologyNameIsAllowedWhenValidAndNotRunning() throws TException {
        TopologySummary summary = new TopologySummary();
        summary.set_name("busy");
        running.add(summary);

        assertTrue(nimbus.isTopologyNameAllowed("free"));
        assertFalse(nimbus.isTopologyNameAllowed("busy"));
        assertFalse(nimbus.isTopologyNameAllowed("no/slashes"));
    }

    @Test
    void killForwardsAndForgetsTheTopology() throws TException {
        nimbus.submitTopology("a", "loc", "{}", new StormTopology());
        nimbus.submitTopology("b", "loc", "{}", new StormTopology());
        KillOptions options = new KillOptions();
        options.set_wait_secs(2);

        nimbus.killTopologyWithOpts("a", options);
        nimbus.killTopology("b");

        assertEquals(new Call("killTopologyWithOpts", List.of("a", options)), calls.get(2));
        assertEquals(new Call("killTopology", List.of("b")), calls.get(3));
        assertTrue(nimbus.submittedTopologies().isEmpty());
    }

    @Test
    void lifecycleAndQueriesAreForwarded() throws TException {
        nimbus.activate("a");
        nimbus.deactivate("a");
        nimbus.getTopologyInfoByName("a");
        nimbus.getClusterInfo();
        nimbus.getUserTopology("id");

        assertEquals(List.of("activate", "deactivate", "getTopologyInfoByName", "getClusterInfo", "getTopology"),
                calls.stream().map(Call::method).toList());
    }

    @Test
    void thisProcessIsTheLeaderAndItsConfIsTheOverrides() {
        assertTrue(nimbus.getLeader().is_isLeader());
        assertTrue(nimbus.getNimbusConf().contains("\"from.cli\":7"), nimbus.getNimbusConf());
    }

    @Test
    void callsWithoutMeaningInOneProcessGoToAClusterThatIsItselfANimbus() throws TException {
        List<String> nimbusCalls = new ArrayList<>();
        Object both = Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ILocalCluster.class, Nimbus.Iface.class}, (proxy, method, args) -> {
                    nimbusCalls.add(method.getName());
                    return null;
                });
        LocalNimbus forwarding = new LocalNimbus((ILocalCluster) both, Map.of());

        forwarding.processWorkerMetrics(null);
        forwarding.sendSupervisorWorkerHeartbeat(null);

        assertEquals(List.of("processWorkerMetrics", "sendSupervisorWorkerHeartbeat"), nimbusCalls);
    }

    @Test
    void callsWithoutMeaningInOneProcessSaySo() {
        NotInProcessException e = assertThrows(NotInProcessException.class, () -> nimbus.beginCreateBlob("k", null));
        assertTrue(e.getMessage().contains("not supported when the topology runs in-process"), e.getMessage());
        assertThrows(NotInProcessException.class, () -> nimbus.getTopologyPageInfo("id", ":all-time", false));
        assertThrows(NotInProcessException.class, () -> nimbus.sendSupervisorWorkerHeartbeats(null));
        assertThrows(NotInProcessException.class, () -> nimbus.setLogConfig("t", null));
        assertTrue(calls.isEmpty());
    }
}
