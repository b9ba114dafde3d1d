package io.microburst.it.operatorload;

import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
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

/**
 * The measurement's topologies, storm-starter's in shape: a word count (sentences, split, count by word) and an
 * exclamation chain (words, two exclaiming bolts), acked, their spouts either at full speed (the measured ones) or
 * paced to a hundred sentences a second (the rest of a busy server's load). They run in the server's process, each
 * component on its executor's thread.
 */
public final class LoadTopologies {
    private static final String[] SENTENCES = {"the cow jumped over the moon", "an apple a day keeps the doctor away",
        "four score and seven years ago", "snow white and the seven dwarfs", "i am at two with nature"};

    private LoadTopologies() {
    }

    /** A word count or, when {@code exclamation}, an exclamation chain; {@code perSecond} 0 is full speed. */
    static StormTopology build(boolean exclamation, int perSecond) {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new SentenceSpout(perSecond), 1);
        if (exclamation) {
            b.setBolt("exclaim1", new Relay(false), 2).shuffleGrouping("spout");
            b.setBolt("exclaim2", new Relay(false), 2).shuffleGrouping("exclaim1");
        } else {
            b.setBolt("split", new Relay(true), 2).shuffleGrouping("spout");
            b.setBolt("count", new Count(), 2).fieldsGrouping("split", new Fields("word"));
        }
        return b.createTopology();
    }

    static Map<String, Object> conf() {
        return Map.of(Config.TOPOLOGY_MAX_SPOUT_PENDING, 1000, Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 30);
    }

    /** Sentences with message ids, at {@code perSecond} (0: as fast as the topology takes them); replays failures. */
    public static class SentenceSpout extends BaseRichSpout {
        private static final long serialVersionUID = 1L;
        private final int perSecond;
        private transient SpoutOutputCollector collector;
        private transient long next;
        private transient long startNanos;

        public SentenceSpout(int perSecond) {
            this.perSecond = perSecond;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            this.startNanos = System.nanoTime();
        }

        @Override
        public void nextTuple() {
            if (perSecond > 0 && next >= (System.nanoTime() - startNanos) / 1_000_000L * perSecond / 1000 + 1) {
                return;
            }
            long id = next++;
            collector.emit(new Values(SENTENCES[(int) (id % SENTENCES.length)]), id);
        }

        @Override
        public void fail(Object msgId) {
            collector.emit(new Values(SENTENCES[(int) ((Long) msgId % SENTENCES.length)]), msgId);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }
    }

    /** Splits a sentence into its words, or exclaims it ({@code split} false); anchored, then acks. */
    public static class Relay extends BaseRichBolt {
        private static final long serialVersionUID = 1L;
        private final boolean split;
        private transient OutputCollector collector;

        public Relay(boolean split) {
            this.split = split;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            String text = input.getString(0);
            if (split) {
                for (String word : text.split(" ")) {
                    collector.emit(input, new Values(word));
                }
            } else {
                collector.emit(input, new Values(text + "!!!"));
            }
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }
    }

    /** Counts words in a map and acks. */
    public static class Count extends BaseRichBolt {
        private static final long serialVersionUID = 1L;
        private transient OutputCollector collector;
        private transient Map<String, Long> counts;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.counts = new java.util.HashMap<>();
        }

        @Override
        public void execute(Tuple input) {
            counts.merge(input.getString(0), 1L, Long::sum);
            if (counts.size() > 10_000 && ThreadLocalRandom.current().nextInt(1000) == 0) {
                counts.clear();
            }
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
