package io.microburst.it.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.it.support.Await;
import io.microburst.it.support.ClusterTestSupport;
import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.Emission;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.PacedSpout;
import io.microburst.it.support.Received;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.SpoutAck;
import io.microburst.it.support.Topologies;
import io.microburst.it.support.TopologyStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.BoltStats;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.Credentials;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.GetInfoOptions;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.NumErrorsChoice;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The ILocalCluster query and control calls: summaries, topology info with live stats, rebalance, several topologies at once. */
class ClusterApiTest extends ClusterTestSupport {
    private static final int TUPLES = 20;

    private StormTopology reliableTopology() {
        List<Emission> emissions = new ArrayList<>();
        for (int n = 0; n < TUPLES; n++) {
            emissions.add(Emission.of("default", n));
        }
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new FixedTuplesSpout(scope, Map.of("default", new Fields("n")), emissions, true), 1);
        builder.setBolt("sink", new CollectingBolt(scope), 2).setNumTasks(4).shuffleGrouping("spout");
        return builder.createTopology();
    }

    @Test
    void topologyAndConfAreReturnedAsSubmitted() throws Exception {
        Config conf = Topologies.baseConf();
        conf.put("it.marker", "marker-value");
        String name = submit("api", conf, reliableTopology());
        awaitRunning();
        String id = cluster.getTopologySummaryByName(name).get_id();

        StormTopology topology = cluster.getTopology(id);
        assertTrue(topology.get_spouts().containsKey("spout"), topology.get_spouts().keySet().toString());
        assertTrue(topology.get_bolts().containsKey("sink"), topology.get_bolts().keySet().toString());
        Map<?, ?> parsed = (Map<?, ?>) JSONValue.parse(cluster.getTopologyConf(id));
        assertEquals("marker-value", parsed.get("it.marker"));
        assertEquals(name, parsed.get(Config.TOPOLOGY_NAME));
    }

    @Test
    void summariesDescribeTheRunningTopology() throws Exception {
        String name = submit("summary", Topologies.baseConf(), reliableTopology());
        awaitRunning();
        TopologySummary byName = cluster.getTopologySummaryByName(name);
        assertEquals(name, byName.get_name());
        assertEquals("ACTIVE", byName.get_status());
        assertEquals(byName.get_id(), cluster.getTopologySummary(byName.get_id()).get_id());
        assertTrue(cluster.getTopologySummaries().stream().anyMatch(s -> s.get_id().equals(byName.get_id())));
        ClusterSummary clusterSummary = cluster.getClusterInfo();
        assertTrue(clusterSummary.get_topologies().stream().anyMatch(s -> s.get_name().equals(name)));
        Await.until("task and executor counts", () -> summary(name).get_num_tasks() >= 5 && summary(name).get_num_executors() >= 3,
            Await.DEFAULT_LIMIT, () -> summary(name).toString());

        cluster.deactivate(name);
        assertEquals("INACTIVE", cluster.getTopologySummaryByName(name).get_status());
        cluster.activate(name);
        assertEquals("ACTIVE", cluster.getTopologySummaryByName(name).get_status());
    }

    @Test
    void topologyInfoCarriesLiveStatsForEveryComponent() throws Exception {
        String name = submit("stats", Topologies.baseConf(), reliableTopology());
        Await.until("every tree acked at the spout", () -> recorded(SpoutAck.class).size() == TUPLES);
        Await.until("stats of " + TUPLES + " tuples", () -> {
            TopologyInfo info = info(name);
            return TopologyStats.emitted(info, "spout", "default") == TUPLES && TopologyStats.executed(info, "sink") == TUPLES
                && TopologyStats.acked(info, "sink") == TUPLES && TopologyStats.acked(info, "spout") == TUPLES;
        }, Await.DEFAULT_LIMIT, () -> info(name).get_executors().toString());
        TopologyInfo info = cluster.getTopologyInfoByName(name);
        assertEquals(name, info.get_name());
        assertEquals(TUPLES, TopologyStats.transferred(info, "spout", "default"));
        assertEquals(0, TopologyStats.failed(info, "sink"));
        assertEquals(0, TopologyStats.failed(info, "spout"));
        assertEquals(4, TopologyStats.taskIds(info, "sink").size(), "the executors cover the 4 sink tasks");
        assertEquals(2, TopologyStats.executorCount(info, "sink"));
        for (ExecutorSummary executor : info.get_executors()) {
            if (executor.get_component_id().equals("sink") && executor.get_stats().get_specific().get_bolt().get_executed()
                .get(TopologyStats.ALL_TIME).values().stream().mapToLong(Long::longValue).sum() > 0) {
                BoltStats bolt = executor.get_stats().get_specific().get_bolt();
                assertNotNull(bolt.get_execute_ms_avg().get(TopologyStats.ALL_TIME), "execute latency");
                assertNotNull(bolt.get_process_ms_avg().get(TopologyStats.ALL_TIME), "process latency");
            }
        }
        for (ExecutorSummary executor : info.get_executors()) {
            if (executor.get_component_id().equals("spout")) {
                Map<String, Double> completeLatency = executor.get_stats().get_specific().get_spout().get_complete_ms_avg()
                    .get(TopologyStats.ALL_TIME);
                assertTrue(completeLatency != null && completeLatency.containsKey("default"), "the spout's complete latency");
            }
        }
        assertTrue(info.get_errors() == null || info.get_errors().values().stream().allMatch(List::isEmpty),
            "a healthy topology reports no error: " + info.get_errors());

        String id = info.get_id();
        assertEquals(name, cluster.getTopologyInfo(id).get_name());
        GetInfoOptions options = new GetInfoOptions();
        options.set_num_err_choice(NumErrorsChoice.ONE);
        assertEquals(id, cluster.getTopologyInfoWithOpts(id, options).get_id());
        assertEquals(id, cluster.getTopologyInfoByNameWithOpts(name, options).get_id());
    }

    @Test
    void severalTopologiesRunSideBySideIsolated() throws Exception {
        String other = Recorder.openScope("other");
        try {
            TopologyBuilder first = new TopologyBuilder();
            first.setSpout("spout", new PacedSpout(scope, 5), 1);
            first.setBolt("sink", new CollectingBolt(scope), 1).shuffleGrouping("spout");
            TopologyBuilder second = new TopologyBuilder();
            second.setSpout("spout", new PacedSpout(other, 5), 1);
            second.setBolt("sink", new CollectingBolt(other), 1).shuffleGrouping("spout");
            String firstName = submit("first", Topologies.baseConf(), first.createTopology());
            String secondName = submit("second", Topologies.baseConf(), second.createTopology());

            Await.until("both to run", () -> recorded(Received.class).size() >= 5
                && Recorder.count(other, Received.class) >= 5);
            Set<Integer> firstSpoutTasks = recorded(Received.class).stream().map(Received::sourceTask).collect(Collectors.toSet());
            assertEquals(1, firstSpoutTasks.size(), "one spout task feeds the first sink");

            Topologies.killAndAwaitGone(cluster, firstName);
            int secondBefore = Recorder.count(other, Received.class);
            Await.until("the second to keep running after the first was killed",
                () -> Recorder.count(other, Received.class) > secondBefore + 5);
            assertTrue(Topologies.isListed(cluster, secondName));
            assertFalse(Topologies.isListed(cluster, firstName));
        } finally {
            Recorder.closeScope(other);
        }
    }

    @Test
    void rebalanceChangesExecutorsWithinTheTaskCount() throws Exception {
        assumeMicroburst("Storm's LocalCluster can halt the JVM while rebalancing (its supervisor fails to read stormconf.ser)");
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new PacedSpout(scope, 5), 1);
        builder.setBolt("sink", new CollectingBolt(scope), 1).setNumTasks(4).shuffleGrouping("spout");
        String name = submit("rebalance", Topologies.baseConf(), builder.createTopology());
        Await.until("one sink executor", () -> TopologyStats.executorCount(info(name), "sink") == 1);

        RebalanceOptions options = new RebalanceOptions();
        options.set_wait_secs(0);
        options.put_to_num_executors("sink", 2);
        cluster.rebalance(name, options);
        Await.until("two sink executors", () -> TopologyStats.executorCount(info(name), "sink") == 2
            && "ACTIVE".equals(info(name).get_status()), Await.DEFAULT_LIMIT, () -> info(name).toString());
        assertEquals(4, TopologyStats.taskIds(info(name), "sink").size(), "rebalance keeps the task count");
        int before = recorded(Received.class).size();
        Await.until("tuples after the rebalance", () -> recorded(Received.class).size() > before + 5);
    }

    /**
     * Closing the handle submitTopology returned kills the topology at once, as Storm's handle does (a kill with wait_secs 0). The
     * message timeout is set far beyond the wait limit, so a runtime that waited it instead would fail here.
     */
    @Test
    void closingTheSubmittedTopologyHandleKillsItAtOnce() throws Exception {
        String name = Topologies.uniqueName("handle");
        killAfterTest(name);
        Config conf = Topologies.baseConf();
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 300);
        try (ILocalCluster.ILocalTopology handle = cluster.submitTopology(name, conf, reliableTopology())) {
            awaitRunning();
            assertTrue(Topologies.isListed(cluster, name));
        }
        Await.until("the topology to go once its handle is closed (not after the 300 s message timeout)",
            () -> !Topologies.isListed(cluster, name));
    }

    @Test
    void errorsReportedByTasksAppearInTopologyInfo() throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new PacedSpout(scope, 5), 1);
        builder.setBolt("reporter", new ErrorReportingBolt(scope), 1).shuffleGrouping("spout");
        String name = submit("reported", Topologies.baseConf(), builder.createTopology());
        Await.until("the reported error in getTopologyInfo", () -> {
            Map<String, List<ErrorInfo>> errors = info(name).get_errors();
            return errors != null && errors.get("reporter") != null && !errors.get("reporter").isEmpty();
        });
        ErrorInfo error = info(name).get_errors().get("reporter").get(0);
        assertTrue(error.get_error().contains("reported by the task"), error.get_error());
        assertTrue(error.get_error().contains("ErrorReportingBolt"), "the error carries its stack trace: " + error.get_error());
        long nowSecs = System.currentTimeMillis() / 1000;
        assertTrue(Math.abs(nowSecs - error.get_error_time_secs()) < 120, "error time " + error.get_error_time_secs());
        int before = recorded(Received.class).size();
        Await.until("the topology to keep running", () -> recorded(Received.class).size() > before + 3);
        assertEquals("ACTIVE", cluster.getTopologySummaryByName(name).get_status());
    }

    @Test
    void unknownTopologiesAreNotAlive() {
        assertThrows(NotAliveException.class, () -> cluster.killTopology("no-such-topology"));
        assertThrows(NotAliveException.class, () -> cluster.activate("no-such-topology"));
        assertThrows(NotAliveException.class, () -> cluster.deactivate("no-such-topology"));
        assertThrows(NotAliveException.class, () -> cluster.getTopologyInfoByName("no-such-topology"));
    }

    @Test
    void unsupportedCallsSaySo() {
        assumeMicroburst("Storm's LocalCluster implements these with ZooKeeper and simulated time");
        assertClearUnsupported(() -> cluster.uploadNewCredentials("any", new Credentials(Map.of())));
        assertClearUnsupported(() -> cluster.getClusterState().allSupervisorInfo());
        assertClearUnsupported(() -> cluster.getClusterState().setupHeatbeats("any", Map.of()));
    }

    @Test
    void advancingClusterTimeNeedsSimulatedTimeAsOnStorm() {
        assertThrows(IllegalStateException.class, () -> cluster.advanceClusterTime(1));
    }

    private static void assertClearUnsupported(Executable call) {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, call);
        assertTrue(e.getMessage() != null && e.getMessage().length() > 10, "the message must say what is unsupported: " + e.getMessage());
    }

    /**
     * Every test lets its topology reach its tasks before the test ends and the topology is killed: Storm's LocalCluster can halt
     * the JVM when a topology is killed while its worker is still being set up.
     */
    private void awaitRunning() {
        Await.until("the first tuple", () -> !recorded(Received.class).isEmpty());
    }

    private TopologySummary summary(String name) {
        try {
            return cluster.getTopologySummaryByName(name);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private TopologyInfo info(String name) {
        try {
            return cluster.getTopologyInfoByName(name);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Reports (without throwing) one error on its first tuple, as a bolt noticing bad input would. */
    static final class ErrorReportingBolt extends CollectingBolt {
        private transient OutputCollector collector;
        private transient boolean reported;

        ErrorReportingBolt(String scope) {
            super(scope);
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context,
                            OutputCollector collector) {
            this.collector = collector;
            super.prepare(topoConf, context, collector);
        }

        @Override
        public void execute(Tuple input) {
            if (!reported) {
                reported = true;
                collector.reportError(new IllegalStateException("reported by the task"));
            }
            super.execute(input);
        }
    }
}
