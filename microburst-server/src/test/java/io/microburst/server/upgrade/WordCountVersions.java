package io.microburst.server.upgrade;

import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.generated.StormTopology;
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

/**
 * The two alternating versions of a word count shaped as storm-starter's {@code WordCountTopology}: sentences, split
 * by storm-starter's Python splitter ({@code splitsentence.py} as a {@code ShellBolt}, one subprocess per task),
 * counted per word. Unlike storm-starter's random sentence spout, the spout here gives each sentence an id and
 * replays what fails, so that acks measure the gap and nothing may be lost. The second version counts lower-cased
 * words and runs more splitter and counter executors.
 */
final class WordCountVersions {
    static final String[] SENTENCES = {"the quick brown fox jumps over the lazy dog", "a stitch in time saves nine",
        "all that glitters is not gold", "Every cloud has a silver lining", "actions speak louder than words"};
    static final AtomicInteger NEXT = new AtomicInteger();
    static final Queue<Integer> REPLAY = new ConcurrentLinkedQueue<>();
    static volatile boolean emitting = true;

    private WordCountVersions() {
    }

    static StormTopology topology(boolean second) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new SentenceSpout(), 1);
        builder.setBolt("split", new SplitSentence(), second ? 3 : 2).shuffleGrouping("spout");
        builder.setBolt("count", second ? new LowerCaseCount() : new WordCount(), second ? 3 : 2)
            .fieldsGrouping("split", new Fields("word"));
        return builder.createTopology();
    }

    /** Emits sentences with increasing ids, replaying failed ones first; records acks per version. */
    public static final class SentenceSpout extends BaseRichSpout {
        private transient SpoutOutputCollector collector;
        private transient int version;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            this.version = VersionStamps.version(context);
        }

        @Override
        public void nextTuple() {
            Integer id = REPLAY.poll();
            if (id == null && emitting) {
                id = NEXT.getAndIncrement();
            }
            if (id != null) {
                collector.emit(new Values(SENTENCES[id % SENTENCES.length]), id);
            }
        }

        @Override
        public void ack(Object msgId) {
            VersionStamps.acked(version, msgId);
        }

        @Override
        public void fail(Object msgId) {
            REPLAY.add((Integer) msgId);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("sentence"));
        }
    }

    /** storm-starter's splitter: its {@code splitsentence.py} in a Python subprocess. */
    public static final class SplitSentence extends ShellBolt implements IRichBolt {
        public SplitSentence() {
            super("python3", "splitsentence.py");
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

    /** Counts words in memory and emits each word with its count, as storm-starter's counter does. */
    public static class WordCount extends BaseBasicBolt {
        private final Map<String, Integer> counts = new HashMap<>();

        String key(String word) {
            return word;
        }

        @Override
        public void execute(Tuple tuple, BasicOutputCollector collector) {
            String word = key(tuple.getString(0));
            int count = counts.merge(word, 1, Integer::sum);
            collector.emit(new Values(word, count));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word", "count"));
        }
    }

    /** The second version's counter: the same, on lower-cased words. */
    public static final class LowerCaseCount extends WordCount {
        @Override
        String key(String word) {
            return word.toLowerCase(java.util.Locale.ROOT);
        }
    }
}
