package io.microburst.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import io.microburst.MicroburstCluster;
import org.apache.storm.Config;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.ShellBolt;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.IRichBolt;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

/** A multi-lang (shell) bolt runs as a subprocess in the topology's working directory, with acking. */
class MultiLangTest {
    static final Set<String> SEEN = ConcurrentHashMap.newKeySet();
    static final Set<Object> ACKED = ConcurrentHashMap.newKeySet();

    public static class WordsSpout extends BaseRichSpout {
        private static final String[] WORDS = {"apple", "banana", "cherry"};
        private SpoutOutputCollector collector;
        private int next;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (next < WORDS.length) {
                collector.emit(new Values(WORDS[next]), WORDS[next]);
                next++;
            }
        }

        @Override
        public void ack(Object msgId) {
            ACKED.add(msgId);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }
    }

    public static class UpperBolt extends ShellBolt implements IRichBolt {
        public UpperBolt() {
            super("python3", "upper_bolt.py");
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }

        @Override
        public Map<String, Object> getComponentConfiguration() {
            return null;
        }
    }

    public static class Recorder extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            SEEN.add(input.getString(0));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    static boolean pythonAvailable() {
        try {
            Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void shellBoltEmitsAndAcks() throws Exception {
        assumeTrue(pythonAvailable(), "python3 is not installed");
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("words", new WordsSpout());
        b.setBolt("upper", new UpperBolt()).shuffleGrouping("words");
        b.setBolt("record", new Recorder()).shuffleGrouping("upper");
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("multilang", new Config(), b.createTopology());
            long deadline = System.currentTimeMillis() + 30_000;
            while (ACKED.size() < 3 && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(Set.of("APPLE", "BANANA", "CHERRY"), SEEN);
            assertEquals(Set.of("apple", "banana", "cherry"), ACKED);
        }
    }
}
