package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.storm.Config;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

/**
 * A kill with no wait still executes the tuples already in flight: here a bolt acks its input and emits unanchored
 * to a slow bolt, so every spout tuple is complete long before the slow bolt has seen them all (the shape of Storm's
 * own testing bolts, which {@code Testing.completeTopology} kills as soon as its spouts are exhausted). Producers
 * stop first and every executor runs what waits in its queues, so the slow bolt sees every tuple.
 */
class KillDrainTest {
    static final int COUNT = 200;
    static final Map<String, Set<Integer>> SEEN = new ConcurrentHashMap<>();

    /** Acks its input and emits a copy unanchored, as TestAggregatesCounter does. */
    public static class Unanchoring extends BaseRichBolt {
        private transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            collector.emit(new Values(input.getInteger(0)));
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id"));
        }
    }

    /** Takes 2 ms per tuple and records what it saw. */
    public static class SlowRecorder extends BaseBasicBolt {
        private final String run;

        public SlowRecorder(String run) {
            this.run = run;
        }

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            SEEN.computeIfAbsent(run, k -> ConcurrentHashMap.newKeySet()).add(input.getInteger(0));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @Test
    void aKillWithNoWaitExecutesWhatIsAlreadyInFlight() throws Exception {
        String run = "drain";
        SEEN.remove(run);
        ReplayingSpout.ACKED.remove(run);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ReplayingSpout(run, COUNT));
        b.setBolt("ack", new Unanchoring()).shuffleGrouping("spout");
        b.setBolt("slow", new SlowRecorder(run)).shuffleGrouping("ack");
        Config conf = new Config();
        conf.put(MicroburstConfig.FUSION, false);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("drain", conf, b.createTopology());
            ReplayingSpout.await("every spout tuple acked", 60, () -> ReplayingSpout.acked(run).size() == COUNT);
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts("drain", now); // returns once every executor has stopped
            assertEquals(COUNT, SEEN.getOrDefault(run, Set.of()).size(), "tuples the slow bolt executed before the kill");
        }
    }
}
