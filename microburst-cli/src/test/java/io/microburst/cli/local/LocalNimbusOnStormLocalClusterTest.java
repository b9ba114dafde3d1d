package io.microburst.cli.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.testsupport.LoopbackZookeeper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.StormSubmitter;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.TopologySummary;
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
import org.apache.storm.utils.NimbusClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LocalNimbus in front of Apache Storm's own LocalCluster, driven by an unchanged {@link StormSubmitter}: proves the
 * adapter right independently of the Microburst engine.
 */
class LocalNimbusOnStormLocalClusterTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** What the bolt saw; static because Storm serialises the bolt, and the cluster runs in this JVM. */
    private static final ConcurrentLinkedQueue<String> SEEN = new ConcurrentLinkedQueue<>();
    private static final Map<String, Object> CONF_SEEN = new ConcurrentHashMap<>();

    @Test
    @SuppressWarnings("try") // the override works by existing; the body never names it
    void stormSubmitterRunsATopologyThroughTheAdapter(@TempDir Path dir) throws Exception {
        Path jar = Files.write(dir.resolve("app.jar"), new byte[3000]);
        String previousJar = System.getProperty("storm.jar");
        try (LoopbackZookeeper zookeeper = new LoopbackZookeeper();
             LocalCluster cluster = new LocalCluster(zookeeper.host(), zookeeper.port())) {
            LocalNimbus nimbus = new LocalNimbus(cluster, Map.of("test.override", "from-cli", "test.number", 5));
            System.setProperty("storm.jar", jar.toString());
            try (NimbusClient.LocalOverride override = new NimbusClient.LocalOverride(nimbus)) {
                Config conf = new Config();
                conf.put("test.override", "from-main");
                conf.put("test.main.only", true);
                StormSubmitter.submitTopology("adapter-test", conf, topology());

                assertEquals(3000, nimbus.uploadedJarBytes());
                assertEquals(Set.of("adapter-test"), nimbus.submittedTopologies());
                awaitTrue(() -> SEEN.size() >= 3, "the bolt to see three tuples");
                assertEquals(Set.of("alpha", "beta", "gamma"), new TreeSet<>(SEEN));
                assertEquals("from-cli", CONF_SEEN.get("test.override"));
                assertEquals(5L, ((Number) CONF_SEEN.get("test.number")).longValue());
                assertEquals(true, CONF_SEEN.get("test.main.only"));
                assertTrue(names(nimbus.getTopologySummaries()).contains("adapter-test"));

                KillOptions now = new KillOptions();
                now.set_wait_secs(0);
                nimbus.killTopologyWithOpts("adapter-test", now);
                assertTrue(nimbus.submittedTopologies().isEmpty());
                awaitTrue(() -> !names(cluster.getTopologySummaries()).contains("adapter-test"),
                        "the killed topology to disappear");
            }
        } finally {
            if (previousJar == null) {
                System.clearProperty("storm.jar");
            } else {
                System.setProperty("storm.jar", previousJar);
            }
        }
    }

    private static org.apache.storm.generated.StormTopology topology() {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("words", new FixedWordsSpout(), 1);
        builder.setBolt("record", new RecordingBolt(), 1).shuffleGrouping("words");
        return builder.createTopology();
    }

    private static List<String> names(List<TopologySummary> summaries) {
        return summaries.stream().map(TopologySummary::get_name).toList();
    }

    private interface ThrowingCondition {
        boolean test() throws Exception;
    }

    private static void awaitTrue(ThrowingCondition condition, String what) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.test()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    /** Emits alpha, beta, gamma once, then nothing. */
    public static final class FixedWordsSpout extends BaseRichSpout {
        private static final long serialVersionUID = 1L;
        private static final String[] WORDS = {"alpha", "beta", "gamma"};
        private transient SpoutOutputCollector collector;
        private transient int next;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (next < WORDS.length) {
                collector.emit(new Values(WORDS[next++]));
            } else {
                org.apache.storm.utils.Utils.sleep(5);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }
    }

    /** Records the words and the configuration it was prepared with. */
    public static final class RecordingBolt extends BaseRichBolt {
        private static final long serialVersionUID = 1L;
        private transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            for (String key : List.of("test.override", "test.number", "test.main.only")) {
                if (conf.get(key) != null) {
                    CONF_SEEN.put(key, conf.get(key));
                }
            }
        }

        @Override
        public void execute(Tuple input) {
            SEEN.add(input.getString(0));
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            // a sink
        }
    }
}
