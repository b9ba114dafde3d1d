package io.microburst.it.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.MicroburstCluster;
import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.Runtimes;
import io.microburst.it.support.Topologies;
import io.microburst.it.support.WordCounting;
import java.util.List;
import org.apache.storm.ILocalCluster;
import org.apache.storm.LocalCluster;
import org.apache.storm.Testing;
import org.apache.storm.testing.AckTracker;
import org.apache.storm.testing.FeederSpout;
import org.apache.storm.testing.TrackedTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.Time;
import org.junit.jupiter.api.Test;

/**
 * Storm's tracked topologies (storm-server 2.8.3's {@code Testing.mkTrackedTopology} and {@code trackedWait}), as
 * Storm's own integration tests use them: feed tuples, wait until the cluster has processed everything they caused,
 * then check the results at once, with no further waiting. On Storm's tracked LocalCluster and on
 * {@link MicroburstCluster#tracked()}, every word and every ack is in by the time {@code trackedWait} returns.
 */
class TrackedTopologyParityTest {
    private static final List<String> SENTENCES = List.of("the cow jumped over the moon",
        "an apple a day keeps the doctor away", "four score and seven years ago");

    @Test
    void trackedWaitReturnsOnceEverythingFedIsProcessedOnStorm() throws Exception {
        try (LocalCluster cluster = new LocalCluster.Builder().withSimulatedTime().withTracked().build()) {
            feedAndCheck(Runtimes.STORM, cluster);
        }
    }

    @Test
    void trackedWaitReturnsOnceEverythingFedIsProcessedOnMicroburst() throws Exception {
        try (Time.SimulatedTime time = new Time.SimulatedTime(); MicroburstCluster cluster = MicroburstCluster.tracked()) {
            feedAndCheck(Runtimes.MICROBURST, cluster);
        }
    }

    private static void feedAndCheck(String runtime, ILocalCluster cluster) throws Exception {
        String scope = Recorder.openScope(runtime + "-tracked");
        String name = Topologies.uniqueName("tracked");
        try {
            FeederSpout feeder = new FeederSpout(new Fields("sentence"));
            AckTracker acks = new AckTracker();
            feeder.setAckFailDelegate(acks);
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("sentences", feeder);
            builder.setBolt("split", new WordCounting.Split(), 2).shuffleGrouping("sentences");
            builder.setBolt("count", new WordCounting.Count(), 2).fieldsGrouping("split", new Fields("word"));
            builder.setBolt("sink", new CollectingBolt(scope)).globalGrouping("count");
            TrackedTopology tracked = Testing.mkTrackedTopology(cluster, builder.createTopology());
            cluster.submitTopology(name, Topologies.baseConf(), tracked.getTopology());

            feeder.feed(new Values(SENTENCES.get(0)), 1);
            Testing.trackedWait(tracked, 1);
            assertEquals(WordCounting.expected(SENTENCES.subList(0, 1)), WordCounting.received(scope),
                runtime + " after the first sentence");
            assertEquals(1, acks.getNumAcks(), runtime + " acks after the first sentence");

            feeder.feed(new Values(SENTENCES.get(1)), 2);
            feeder.feed(new Values(SENTENCES.get(2)), 3);
            Testing.trackedWait(tracked, 2);
            assertEquals(WordCounting.expected(SENTENCES), WordCounting.received(scope),
                runtime + " after all sentences");
            assertEquals(3, acks.getNumAcks(), runtime + " acks after all sentences");
            assertEquals(3, tracked.globalAmt("spout-emitted"), runtime + " spout emits counted");
            assertEquals(tracked.globalAmt("transferred"), tracked.globalAmt("processed"), runtime);
        } finally {
            // no kill: under simulated time Storm's would wait for the clock; closing the cluster stops everything
            Recorder.closeScope(scope);
        }
    }
}
