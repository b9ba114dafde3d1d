package io.microburst.it.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.MicroburstCluster;
import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.Received;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.Runtimes;
import io.microburst.it.support.Topologies;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.ILocalCluster;
import org.apache.storm.LocalCluster;
import org.apache.storm.Testing;
import org.apache.storm.testing.AckTracker;
import org.apache.storm.testing.FeederSpout;
import org.apache.storm.testing.TrackedTopology;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
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

    /** Splits a sentence into words. */
    public static class Split extends BaseBasicBolt {
        @Override
        public void execute(Tuple tuple, BasicOutputCollector collector) {
            for (String word : tuple.getString(0).split(" ")) {
                collector.emit(new Values(word));
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }
    }

    /** Emits (word, count so far). */
    public static class Count extends BaseBasicBolt {
        private final Map<String, Integer> counts = new HashMap<>();

        @Override
        public void execute(Tuple tuple, BasicOutputCollector collector) {
            String word = tuple.getString(0);
            collector.emit(new Values(word, counts.merge(word, 1, Integer::sum)));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word", "count"));
        }
    }

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
            builder.setBolt("split", new Split(), 2).shuffleGrouping("sentences");
            builder.setBolt("count", new Count(), 2).fieldsGrouping("split", new Fields("word"));
            builder.setBolt("sink", new CollectingBolt(scope)).globalGrouping("count");
            TrackedTopology tracked = Testing.mkTrackedTopology(cluster, builder.createTopology());
            cluster.submitTopology(name, Topologies.baseConf(), tracked.getTopology());

            feeder.feed(new Values(SENTENCES.get(0)), 1);
            Testing.trackedWait(tracked, 1);
            assertEquals(expected(SENTENCES.subList(0, 1)), received(scope), runtime + " after the first sentence");
            assertEquals(1, acks.getNumAcks(), runtime + " acks after the first sentence");

            feeder.feed(new Values(SENTENCES.get(1)), 2);
            feeder.feed(new Values(SENTENCES.get(2)), 3);
            Testing.trackedWait(tracked, 2);
            assertEquals(expected(SENTENCES), received(scope), runtime + " after all sentences");
            assertEquals(3, acks.getNumAcks(), runtime + " acks after all sentences");
            assertEquals(3, tracked.globalAmt("spout-emitted"), runtime + " spout emits counted");
            assertEquals(tracked.globalAmt("transferred"), tracked.globalAmt("processed"), runtime);
        } finally {
            // no kill: under simulated time Storm's would wait for the clock; closing the cluster stops everything
            Recorder.closeScope(scope);
        }
    }

    private static List<String> expected(List<String> sentences) {
        Map<String, Integer> counts = new HashMap<>();
        List<String> result = new ArrayList<>();
        for (String sentence : sentences) {
            for (String word : sentence.split(" ")) {
                result.add(word + "=" + counts.merge(word, 1, Integer::sum));
            }
        }
        result.sort(null);
        return result;
    }

    private static List<String> received(String scope) {
        List<String> words = new ArrayList<>();
        for (Object event : Recorder.all(scope)) {
            if (event instanceof Received r) {
                words.add(r.values().get(0) + "=" + r.values().get(1));
            }
        }
        words.sort(null);
        return words;
    }
}
