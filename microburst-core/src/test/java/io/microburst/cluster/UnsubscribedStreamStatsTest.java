package io.microburst.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

/**
 * A stream no component subscribes to transfers nothing: Storm counts "transferred" per task a tuple is sent to, so
 * its count stays 0 however much is emitted (storm-perf's ConstSpoutOnlyTopo prints it). Read while the spout emits,
 * it must never be off by the emits in flight, nor below 0.
 */
class UnsubscribedStreamStatsTest {
    /** Emits on "side", which nobody subscribes to, and on "default", which one bolt takes. */
    public static class TwoStreamSpout extends BaseRichSpout {
        private SpoutOutputCollector collector;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            collector.emit("side", new Values("x"));
            collector.emit(new Values("y"));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("v"));
            declarer.declareStream("side", new Fields("v"));
        }
    }

    public static class SinkBolt extends BaseRichBolt {
        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        }

        @Override
        public void execute(Tuple input) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @Test
    void aStreamNobodySubscribesToNeverShowsTransferredTuples() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new TwoStreamSpout());
        b.setBolt("sink", new SinkBolt()).shuffleGrouping("spout");
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("unsubscribed", new Config(), b.createTopology());
            long deadline = System.currentTimeMillis() + 60_000;
            int reads = 0;
            long sideEmitted = 0;
            // reads race the spout's counters on purpose: each one must show exactly 0 transferred on "side"
            while (reads < 2_000 || sideEmitted < 100_000) {
                assertTrue(System.currentTimeMillis() < deadline, "the spout emitted " + sideEmitted + " in 60 s");
                TopologyInfo info = cluster.getTopologyInfoByName("unsubscribed");
                sideEmitted = count(info, true, "side");
                assertEquals(0, count(info, false, "side"), "transferred on 'side' after " + sideEmitted + " emits");
                assertTrue(count(info, false, "default") >= 0, "transferred on 'default'");
                reads++;
            }
        }
    }

    private static long count(TopologyInfo info, boolean emitted, String stream) {
        long total = 0;
        for (ExecutorSummary e : info.get_executors()) {
            if (e.get_component_id().equals("spout") && e.get_stats() != null) {
                Map<String, Long> all = (emitted ? e.get_stats().get_emitted() : e.get_stats().get_transferred())
                    .get(ClusterViews.ALL_TIME);
                total += all == null ? 0 : all.getOrDefault(stream, 0L);
            }
        }
        return total;
    }
}
