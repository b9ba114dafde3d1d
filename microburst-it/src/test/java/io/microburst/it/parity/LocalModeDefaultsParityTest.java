package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.it.support.Recorder;
import io.microburst.it.support.RecordingTaskHook;
import java.time.Duration;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;

/**
 * What a local cluster sets for the topologies it runs, seen by a component: Storm's LocalCluster has Trident start a
 * batch every 50 ms (defaults.yaml says 500 ms, a real cluster's), which is why Trident examples (storm-redis-examples'
 * WordCountTridentRedis) go ten times as fast on {@code storm local} as on a cluster. A topology's own setting wins.
 */
class LocalModeDefaultsParityTest extends ParityTestSupport {
    /** Records the Trident batch interval of the configuration it is opened with. */
    public static class ConfReportingSpout extends BaseRichSpout {
        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            Recorder.record((String) conf.get(RecordingTaskHook.SCOPE_KEY),
                "interval=" + conf.get(Config.TOPOLOGY_TRIDENT_BATCH_EMIT_INTERVAL_MILLIS));
        }

        @Override
        public void nextTuple() {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("x"));
        }
    }

    private Map<String, Run> run(String label, Map<String, Object> conf) throws Exception {
        return runOnBoth(label, scope -> {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("spout", new ConfReportingSpout());
            return builder.createTopology();
        }, conf, events -> events.stream().anyMatch(e -> e instanceof String s && s.startsWith("interval=")),
            Duration.ofSeconds(60));
    }

    private static Object interval(Run run) {
        return run.all(String.class).stream().filter(s -> s.startsWith("interval=")).findFirst().orElseThrow();
    }

    @Test
    void tridentStartsABatchEvery50MillisecondsOnALocalClusterAsOnStorms() throws Exception {
        Map<String, Run> runs = run("local-defaults", Map.of());
        assertEquals("interval=50", interval(runs.get("storm")), "Storm's LocalCluster");
        assertEquals(interval(runs.get("storm")), interval(runs.get("microburst")), "Microburst");
    }

    @Test
    void aTopologysOwnTridentIntervalWinsOnBoth() throws Exception {
        Map<String, Run> runs = run("own-interval", Map.of(Config.TOPOLOGY_TRIDENT_BATCH_EMIT_INTERVAL_MILLIS, 200));
        assertEquals("interval=200", interval(runs.get("storm")), "Storm's LocalCluster");
        assertEquals(interval(runs.get("storm")), interval(runs.get("microburst")), "Microburst");
    }
}
