package io.microburst.localcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.LocalDRPC;
import org.apache.storm.StormSubmitter;
import org.apache.storm.Testing;
import org.apache.storm.drpc.LinearDRPCTopologyBuilder;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.testing.CompleteTopologyParam;
import org.apache.storm.testing.FixedTuple;
import org.apache.storm.testing.MockedSources;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What this artifact adds over forwarding to Microburst: the behaviours Storm's LocalCluster users rely on. */
class LocalClusterTest {

    /** As under storm local: the jar StormSubmitter uploads is named by storm.jar (the upload is discarded). */
    @Test
    void stormSubmitterReachesTheClusterWhileItIsOpen(@TempDir Path dir) throws Exception {
        Path jar = dir.resolve("app.jar");
        try (JarOutputStream empty = new JarOutputStream(Files.newOutputStream(jar))) {
            empty.putNextEntry(new JarEntry("README"));
        }
        String previous = System.setProperty("storm.jar", jar.toString());
        try (LocalCluster cluster = new LocalCluster()) {
            StormSubmitter.submitTopology("submitted", new Config(), exclaim());
            assertEquals("submitted", cluster.getTopologySummaryByName("submitted").get_name());
            assertTrue(cluster.getNimbus().getClusterInfo().get_topologies().stream()
                .anyMatch(t -> t.get_name().equals("submitted")));
        } finally {
            if (previous == null) {
                System.clearProperty("storm.jar");
            } else {
                System.setProperty("storm.jar", previous);
            }
        }
    }

    @Test
    void theHandleSubmitTopologyReturnsKillsTheTopologyWhenClosed() throws Exception {
        try (LocalCluster cluster = new LocalCluster()) {
            try (LocalCluster.LocalTopology topology = cluster.submitTopology("handle", Map.of(), exclaim())) {
                assertEquals(1, topology.get_bolts_size());
                assertTrue(cluster.isTopologyNameAllowed("other"));
                assertFalse(cluster.isTopologyNameAllowed("handle"));
            }
            assertTrue(cluster.getTopologySummaries().isEmpty(), "killed at once when the handle closed");
        }
    }

    @Test
    void localDrpcServesALinearDrpcTopology() throws Exception {
        LinearDRPCTopologyBuilder builder = new LinearDRPCTopologyBuilder("exclaim");
        builder.addBolt(new ExclaimRequest(), 2);
        try (LocalDRPC drpc = new LocalDRPC(); LocalCluster cluster = new LocalCluster()) {
            cluster.submitTopology("drpc", Map.of(), builder.createLocalTopology(drpc));
            assertEquals("hello!", drpc.execute("exclaim", "hello"));
        }
    }

    @Test
    void completeTopologyReadsWhatEachComponentEmitted() throws Exception {
        MockedSources sources = new MockedSources();
        sources.addMockData("words", new Values("a"), new Values("b"));
        CompleteTopologyParam param = new CompleteTopologyParam();
        param.setMockedSources(sources);
        try (LocalCluster cluster = new LocalCluster.Builder().withSimulatedTime().build()) {
            Map<String, List<FixedTuple>> results = Testing.completeTopology(cluster, exclaim(), param);
            assertTrue(Testing.multiseteq(List.<List<Object>>of(List.of("a!"), List.of("b!")),
                Testing.readTuples(results, "exclaim")), results.toString());
        }
    }

    @Test
    void completeTopologyNamesASpoutThatCannotComplete() throws Exception {
        try (LocalCluster cluster = new LocalCluster()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Testing.completeTopology(cluster, exclaim()));
            assertTrue(e.getMessage().contains("spout 'words' is a " + TestWordSpout.class.getName()), e.getMessage());
        }
    }

    @Test
    void callsThatNeedDaemonsSaySo() throws Exception {
        try (LocalCluster cluster = new LocalCluster()) {
            IllegalStateException port = assertThrows(IllegalStateException.class, cluster::getThriftServerPort);
            assertTrue(port.getMessage().contains("no Nimbus Thrift server"), port.getMessage());
            UnsupportedOperationException page = assertThrows(UnsupportedOperationException.class,
                () -> cluster.getTopologyPageInfo("id", ":all-time", false));
            assertTrue(page.getMessage().startsWith("Nimbus.getTopologyPageInfo is not available"), page.getMessage());
        }
    }

    private static StormTopology exclaim() {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("words", new TestWordSpout(), 1);
        builder.setBolt("exclaim", new Exclaim(), 2).shuffleGrouping("words");
        return builder.createTopology();
    }

    /** Appends "!" to the word. */
    static final class Exclaim extends BaseBasicBolt {
        private static final long serialVersionUID = 1L;

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            collector.emit(new Values(input.getString(0) + "!"));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }
    }

    /** Appends "!" to a DRPC request's argument, keeping its id. */
    static final class ExclaimRequest extends BaseBasicBolt {
        private static final long serialVersionUID = 1L;

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            collector.emit(new Values(input.getValue(0), input.getString(1) + "!"));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id", "result"));
        }
    }
}
