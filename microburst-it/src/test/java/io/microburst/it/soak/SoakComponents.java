package io.microburst.it.soak;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.ShellBolt;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.IRichBolt;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.topology.base.BaseStatefulBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * The spouts and bolts of the server soak's topologies. They run in the server's process (deserialized per task),
 * each on its executor's thread, so they share nothing with the test but what their constructor arguments say.
 */
public final class SoakComponents {
    static final Fields FIELDS = new Fields("id", "key", "hops");

    private SoakComponents() {
    }

    /**
     * Emits ids with themselves as message ids at {@code perSecond}, replaying failed ones; while the file
     * {@code fastFlag} exists (checked about every 200 ms), as fast as the topology takes them (the throughput phases).
     */
    public static class PacedSpout extends BaseRichSpout {
        private static final long serialVersionUID = 1L;
        private final int perSecond;
        private final String fastFlag;
        private transient SpoutOutputCollector collector;
        private transient ArrayDeque<Long> replay;
        private transient long next;
        private transient long startNanos;
        private transient long flagCheckedNanos;
        private transient boolean fast;

        public PacedSpout(int perSecond, String fastFlag) {
            this.perSecond = perSecond;
            this.fastFlag = fastFlag;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            this.replay = new ArrayDeque<>();
            this.startNanos = System.nanoTime();
        }

        @Override
        public void nextTuple() {
            Long id = replay.poll();
            if (id == null) {
                long now = System.nanoTime();
                if (fastFlag != null && now - flagCheckedNanos > 200_000_000L) {
                    flagCheckedNanos = now;
                    boolean wasFast = fast;
                    fast = Files.exists(Path.of(fastFlag));
                    if (wasFast && !fast) {
                        startNanos = now - next * 1_000_000_000L / perSecond;
                    }
                }
                if (!fast && next >= (now - startNanos) / 1_000_000L * perSecond / 1000 + 1) {
                    return;
                }
                id = next++;
            }
            collector.emit(new Values(id, (int) (id % 16), 0), id);
        }

        @Override
        public void fail(Object msgId) {
            replay.add((Long) msgId);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(FIELDS);
        }
    }

    /** Emits {@code children} anchored copies of each input with one hop more, then acks it. */
    public static class RelayBolt extends BaseRichBolt {
        private static final long serialVersionUID = 1L;
        private final int children;
        private transient OutputCollector collector;

        public RelayBolt(int children) {
            this.children = children;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            Values out = new Values(input.getValue(0), input.getValue(1), input.getInteger(2) + 1);
            for (int i = 0; i < children; i++) {
                collector.emit(input, out);
            }
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(FIELDS);
        }
    }

    /**
     * Counts how often it saw each value of the field {@code field} (a number as a string or a Long) in a
     * {@code KeyValueState}; Storm's checkpointing makes it ack only what a committed checkpoint holds.
     */
    public static class CountingBolt extends BaseStatefulBolt<KeyValueState<Long, Long>> {
        private static final long serialVersionUID = 1L;
        private final String field;
        private transient KeyValueState<Long, Long> counts;
        private transient OutputCollector collector;

        public CountingBolt(String field) {
            this.field = field;
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void initState(KeyValueState<Long, Long> state) {
            this.counts = state;
        }

        @Override
        public void execute(Tuple input) {
            Object value = input.getValueByField(field);
            long key = value instanceof Number n ? n.longValue() : Long.parseLong(value.toString());
            counts.put(key, counts.get(key, 0L) + 1);
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Storm's multi-lang protocol: a Python subprocess relays each tuple, anchored, and acks it (chaos_relay.py). */
    public static class ShellRelay extends ShellBolt implements IRichBolt {
        private static final long serialVersionUID = 1L;

        public ShellRelay() {
            super("python3", "chaos_relay.py");
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(FIELDS);
        }

        @Override
        public Map<String, Object> getComponentConfiguration() {
            return null;
        }
    }
}
