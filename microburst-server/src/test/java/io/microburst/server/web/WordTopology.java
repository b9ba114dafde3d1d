package io.microburst.server.web;

import io.microburst.server.MicroburstServer;
import java.util.HashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.Utils;

/**
 * storm-starter's WordCountTopology in shape (sentences, split, count by fields, and a report bolt that the runtime
 * fuses into count's threads, one to one), with a spout that paces itself to a
 * few thousand sentences a second so the page tests see live rates without loading the machine.
 */
final class WordTopology {
    private WordTopology() {
    }

    /** Submits it as {@code name} with tasks to spare for a rebalance; returns its id. */
    static String submit(MicroburstServer server, String name) throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("sentences", new SentenceSpout(), 1);
        builder.setBolt("split", new SplitBolt(), 1).setNumTasks(4).shuffleGrouping("sentences");
        builder.setBolt("count", new CountBolt(), 2).fieldsGrouping("split", new Fields("word"));
        builder.setBolt("report", new ReportBolt(), 2).localOrShuffleGrouping("count");
        Config conf = new Config();
        conf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
        server.cluster().submitTopology(name, conf, builder.createTopology());
        return server.cluster().getTopologySummaryByName(name).get_id();
    }

    /** Emits a sentence per call, sleeping a millisecond every 5 calls. */
    static final class SentenceSpout extends BaseRichSpout {
        private static final String[] SENTENCES = {"the cow jumped over the moon", "an apple a day keeps the doctor away",
            "four score and seven years ago", "snow white and the seven dwarfs", "i am at two with nature"};
        private SpoutOutputCollector collector;
        private long n;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (++n % 5 == 0) {
                Utils.sleep(1);
            }
            collector.emit(new Values(SENTENCES[(int) (n % SENTENCES.length)]));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("sentence"));
        }
    }

    /** Splits a sentence into words, spending about 50 µs on each so that a flame graph of its threads shows it. */
    static final class SplitBolt extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            long until = System.nanoTime() + 50_000;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            for (String word : input.getString(0).split(" ")) {
                collector.emit(new Values(word));
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }
    }

    /** Counts words. */
    static final class CountBolt extends BaseBasicBolt {
        private final Map<String, Integer> counts = new HashMap<>();

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            String word = input.getString(0);
            int count = counts.merge(word, 1, Integer::sum);
            collector.emit(new Values(word, count));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word", "count"));
        }
    }

    /** Keeps the largest count seen; emits nothing. */
    static final class ReportBolt extends BaseBasicBolt {
        private int largest;

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            largest = Math.max(largest, input.getInteger(1));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
