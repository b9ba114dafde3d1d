package example.scaleout;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.Constants;
import org.apache.storm.StormSubmitter;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.topology.base.BaseWindowedBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.windowing.TupleWindow;

/**
 * One topology, three independent parts, each with finite input (see {@link ParityInput}) and an output that does not
 * depend on timing:
 * <ul>
 *   <li>word count: sentences, unanchored, split (shuffle) and counted (fields), every (word, count) update written;</li>
 *   <li>acking: ids emitted with message ids through two anchoring bolts; the spout writes each id it sees acked and
 *       replays what fails;</li>
 *   <li>ticks and windows: numbers in order to a tumbling count window that writes each window's sum, and to a bolt that
 *       writes what it buffered only when a tick tuple arrives.</li>
 * </ul>
 * Usage: {@code ParityTopology OUTPUT_DIR [NAME]}; submits with {@link StormSubmitter} on 2 workers.
 */
public final class ParityTopology {
    private ParityTopology() {
    }

    /** Submits the topology. */
    public static void main(String[] args) throws Exception {
        String out = args[0];
        String name = args.length > 1 ? args[1] : "scaleout-parity";
        Config conf = new Config();
        conf.setNumWorkers(2);
        StormSubmitter.submitTopology(name, conf, build(out).createTopology());
    }

    /** The topology writing under {@code out}. */
    public static TopologyBuilder build(String out) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("sentences", new SentenceSpout(), 1);
        builder.setBolt("split", new SplitBolt(), 2).shuffleGrouping("sentences");
        builder.setBolt("count", new CountBolt(), 2).fieldsGrouping("split", new Fields("word"));
        builder.setBolt("count-sink", new CountSink(out), 2).fieldsGrouping("count", new Fields("word"));

        builder.setSpout("ids", new IdSpout(out), 1);
        builder.setBolt("relay", new RelayBolt(), 2).shuffleGrouping("ids");
        builder.setBolt("ack-end", new RelayBolt(), 2).fieldsGrouping("relay", new Fields("id"));

        builder.setSpout("numbers", new NumberSpout(), 1);
        builder.setBolt("window-sum", new WindowSumBolt(out)
                .withTumblingWindow(BaseWindowedBolt.Count.of(ParityInput.WINDOW)), 1)
            .shuffleGrouping("numbers");
        builder.setBolt("tick-flush", new TickFlushBolt(out), 1).shuffleGrouping("numbers")
            .addConfiguration(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
        return builder;
    }

    /** Emits every sentence once, without message ids. */
    public static final class SentenceSpout extends BaseRichSpout {
        private SpoutOutputCollector collector;
        private int next;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (next < ParityInput.SENTENCES) {
                collector.emit(new Values(ParityInput.sentence(next++)));
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("sentence"));
        }
    }

    /** Splits a sentence into words. */
    public static final class SplitBolt extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            for (String word : input.getString(0).split(" ")) {
                collector.emit(new Values(word));
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }
    }

    /** Counts words and emits each new count. */
    public static final class CountBolt extends BaseBasicBolt {
        private final Map<String, Integer> counts = new HashMap<>();

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            String word = input.getString(0);
            collector.emit(new Values(word, counts.merge(word, 1, Integer::sum)));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word", "count"));
        }
    }

    /** Writes every (word, count) update. */
    public static final class CountSink extends BaseBasicBolt {
        private final String out;
        private transient Sink sink;

        CountSink(String out) {
            this.out = out;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context) {
            sink = new Sink(out, "wordcount", context.getThisTaskId());
        }

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            sink.line(input.getString(0) + " " + input.getInteger(1));
        }

        @Override
        public void cleanup() {
            sink.close();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Emits ids with message ids, replays the failed ones, and writes each id acked. */
    public static final class IdSpout extends BaseRichSpout {
        private final String out;
        private transient SpoutOutputCollector collector;
        private transient Sink acked;
        private transient ArrayDeque<Integer> replay;
        private int next;

        IdSpout(String out) {
            this.out = out;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            this.acked = new Sink(out, "acked", context.getThisTaskId());
            this.replay = new ArrayDeque<>();
        }

        @Override
        public void nextTuple() {
            Integer id = replay.poll();
            if (id == null && next < ParityInput.IDS) {
                id = next++;
            }
            if (id != null) {
                collector.emit(new Values(id), id);
            }
        }

        @Override
        public void ack(Object msgId) {
            acked.line(msgId.toString());
        }

        @Override
        public void fail(Object msgId) {
            replay.add((Integer) msgId);
        }

        @Override
        public void close() {
            acked.close();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id"));
        }
    }

    /** Passes an id on, anchored, then acks its input. */
    public static final class RelayBolt extends BaseRichBolt {
        private OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            collector.emit(input, new Values(input.getInteger(0)));
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id"));
        }
    }

    /** Emits 0 .. NUMBERS - 1 in order, without message ids. */
    public static final class NumberSpout extends BaseRichSpout {
        private SpoutOutputCollector collector;
        private int next;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (next < ParityInput.NUMBERS) {
                collector.emit(new Values(next++));
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Writes "first-number sum" for each tumbling count window. */
    public static final class WindowSumBolt extends BaseWindowedBolt {
        private final String out;
        private transient Sink sink;

        WindowSumBolt(String out) {
            this.out = out;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            sink = new Sink(out, "window", context.getThisTaskId());
        }

        @Override
        public void execute(TupleWindow window) {
            List<Tuple> tuples = window.get();
            long sum = 0;
            for (Tuple t : tuples) {
                sum += t.getInteger(0);
            }
            sink.line(tuples.get(0).getInteger(0) + " " + tuples.size() + " " + sum);
        }

        @Override
        public void cleanup() {
            sink.close();
        }
    }

    /** Buffers numbers and writes them only when a tick tuple arrives. */
    public static final class TickFlushBolt extends BaseRichBolt {
        private final String out;
        private transient OutputCollector collector;
        private transient Sink sink;
        private transient List<Integer> buffered;

        TickFlushBolt(String out) {
            this.out = out;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.sink = new Sink(out, "tick", context.getThisTaskId());
            this.buffered = new ArrayList<>();
        }

        @Override
        public void execute(Tuple input) {
            if (Constants.SYSTEM_COMPONENT_ID.equals(input.getSourceComponent())
                && Constants.SYSTEM_TICK_STREAM_ID.equals(input.getSourceStreamId())) {
                for (Integer n : buffered) {
                    sink.line(n.toString());
                }
                buffered.clear();
            } else {
                buffered.add(input.getInteger(0));
            }
            collector.ack(input);
        }

        @Override
        public void cleanup() {
            sink.close();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
