package io.microburst.it.compat;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import io.microburst.it.support.Runtimes;
import io.microburst.it.support.StormHalts;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.Testing;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.testing.CompleteTopologyParam;
import org.apache.storm.testing.FixedTuple;
import org.apache.storm.testing.MockedSources;
import org.apache.storm.testing.TestAggregatesCounter;
import org.apache.storm.testing.TestGlobalCount;
import org.apache.storm.testing.TestWordCounter;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.Time;
import org.junit.jupiter.api.Test;

/**
 * A Storm user's unit test, written with storm-server's {@code Testing.completeTopology} and {@code MockedSources} as
 * Storm documents it (the shape of storm-starter's TestingApiDemo), passes unchanged on Microburst: only the line that
 * creates the cluster differs. It runs on Storm's LocalCluster too, and prints how long each took.
 */
class StormTestingApiTest {

    /** The user's test body, given a cluster. */
    static void completeTopologyWithMockedSources(ILocalCluster cluster) throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("1", new TestWordSpout(true), 3);
        builder.setBolt("2", new TestWordCounter(), 4).fieldsGrouping("1", new Fields("word"));
        builder.setBolt("3", new TestGlobalCount()).globalGrouping("1");
        builder.setBolt("4", new TestAggregatesCounter()).globalGrouping("2");
        StormTopology topology = builder.createTopology();

        MockedSources mockedSources = new MockedSources();
        mockedSources.addMockData("1", new Values("nathan"), new Values("bob"), new Values("joey"), new Values("nathan"));
        Config conf = new Config();
        conf.setNumWorkers(2);
        CompleteTopologyParam completeTopologyParam = new CompleteTopologyParam();
        completeTopologyParam.setMockedSources(mockedSources);
        completeTopologyParam.setStormConf(conf);
        // Storm's default of 10 s is often too short for its LocalCluster to start a worker on a busy 2-core machine.
        completeTopologyParam.setTimeoutMs(90_000);

        Map<String, List<FixedTuple>> result = Testing.completeTopology(cluster, topology, completeTopologyParam);

        assertTrue(Testing.multiseteq(rows(new Values("nathan"), new Values("bob"), new Values("joey"),
            new Values("nathan")), Testing.readTuples(result, "1")), "spout: " + Testing.readTuples(result, "1"));
        assertTrue(Testing.multiseteq(rows(new Values("nathan", 1), new Values("nathan", 2), new Values("bob", 1),
            new Values("joey", 1)), Testing.readTuples(result, "2")), "counter: " + Testing.readTuples(result, "2"));
        assertTrue(Testing.multiseteq(rows(new Values(1), new Values(2), new Values(3), new Values(4)),
            Testing.readTuples(result, "3")), "global count: " + Testing.readTuples(result, "3"));
        assertTrue(Testing.multiseteq(rows(new Values(1), new Values(2), new Values(3), new Values(4)),
            Testing.readTuples(result, "4")), "aggregates: " + Testing.readTuples(result, "4"));
    }

    private static List<List<Object>> rows(Values... rows) {
        return List.of(rows);
    }

    @Test
    void completeTopologyWithMockedSourcesPassesOnMicroburstAndOnStorm() throws Exception {
        StringBuilder report = new StringBuilder("Testing.completeTopology with MockedSources (cluster start + run + close):");
        for (String runtime : List.of(Runtimes.MICROBURST, Runtimes.STORM)) {
            long start = System.nanoTime();
            long ran;
            try (ILocalCluster cluster = Runtimes.start(runtime)) {
                long started = System.nanoTime();
                completeTopologyWithMockedSources(cluster);
                ran = System.nanoTime() - started;
                if (Runtimes.isStorm(runtime)) {
                    // completeTopology kills with no wait: let Storm's supervisor finish stopping the worker before the
                    // cluster closes under it (its timers would fail and halt the JVM)
                    StormHalts.awaitWorkersGone(Duration.ofSeconds(60));
                }
            }
            long total = System.nanoTime() - start;
            report.append(String.format(" %s %d ms (completeTopology alone %d ms);", runtime, total / 1_000_000,
                ran / 1_000_000));
        }
        System.out.println(report);
    }

    @Test
    void completeTopologyUnderSimulatedTimeOnMicroburst() throws Exception {
        try (Time.SimulatedTime time = new Time.SimulatedTime(); ILocalCluster cluster = new MicroburstCluster()) {
            completeTopologyWithMockedSources(cluster);
        }
    }
}
