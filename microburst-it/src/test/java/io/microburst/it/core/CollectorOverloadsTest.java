package io.microburst.it.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.it.support.Await;
import io.microburst.it.support.ClusterTestSupport;
import io.microburst.it.support.Emission;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.Received;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.SpoutAck;
import io.microburst.it.support.Topologies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.storm.Config;
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
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * Every emit overload of the spout's and the bolt's collector: the stream it lands on, the task a direct one reaches,
 * and whether it is anchored (bolts) or tracked (spouts), seen through acks and fails at the spout.
 */
class CollectorOverloadsTest extends ClusterTestSupport {
    /** Overloads 0-5 of a bolt's collector are regular emits, 6-11 direct ones. */
    private static final int BOLT_OVERLOADS = 12;
    /** Whether bolt overload k anchors its tuple to the input. */
    private static final boolean[] ANCHORED = {true, false, true, true, false, true, true, false, true, true, false, true};
    private static final String[] BOLT_STREAM = {"named", "named", "default", "default", "default", "named",
        "namedDirect", "namedDirect", "default", "default", "default", "namedDirect"};

    @Test
    void everyBoltOverloadLandsOnItsStreamAndAnchorsOnlyWhenGivenAnchors() throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        List<Emission> numbers = new ArrayList<>();
        for (int k = 0; k < BOLT_OVERLOADS; k++) {
            numbers.add(Emission.of("default", k));
        }
        // reliable: tuple k is tracked with message id k
        builder.setSpout("src", new FixedTuplesSpout(scope, Map.of("default", new Fields("k")), numbers, true), 1);
        builder.setBolt("relay", new OverloadBolt(false), 1).shuffleGrouping("src");
        builder.setBolt("directRelay", new OverloadBolt(true), 1).shuffleGrouping("src");
        builder.setBolt("sink", new FailingSink(scope), 1)
            .shuffleGrouping("relay").shuffleGrouping("relay", "named");
        builder.setBolt("directSink", new FailingSink(scope), 2)
            .directGrouping("directRelay").directGrouping("directRelay", "namedDirect");
        Config conf = Topologies.baseConf();
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 60);
        submit("bolt-overloads", conf, builder.createTopology());

        Await.until("every tree acked or failed", () -> recorded(SpoutAck.class).size() >= BOLT_OVERLOADS);
        Await.never("a second outcome", () -> recorded(SpoutAck.class).size() > BOLT_OVERLOADS, Duration.ofMillis(300));
        Map<Integer, Received> byK = receivedByNumber(BOLT_OVERLOADS);
        List<Integer> directTasks = sinkTasks("directSink");
        for (int k = 0; k < BOLT_OVERLOADS; k++) {
            Received r = byK.get(k);
            assertEquals(BOLT_STREAM[k], r.stream(), "stream of bolt overload " + k);
            if (k >= 6) {
                assertEquals(directTasks.get(k % 2), r.taskId(), "task reached by direct bolt overload " + k);
            }
        }
        Map<Object, Boolean> outcomes = new TreeMap<>();
        for (SpoutAck a : recorded(SpoutAck.class)) {
            outcomes.put(a.msgId(), a.acked());
        }
        for (int k = 0; k < BOLT_OVERLOADS; k++) {
            // the sink fails everything: an anchored child fails its tree, an unanchored one leaves it to be acked
            assertEquals(!ANCHORED[k], outcomes.get(k), "tree of bolt overload " + k + " acked?");
        }
    }

    @Test
    void everySpoutOverloadLandsOnItsStreamAndIsTrackedOnlyWithAMessageId() throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new OverloadSpout(scope, false), 1);
        builder.setSpout("directSpout", new OverloadSpout(scope, true), 1);
        builder.setBolt("sink", new AckingSink(scope), 1)
            .shuffleGrouping("spout").shuffleGrouping("spout", "named");
        builder.setBolt("directSink", new AckingSink(scope), 2)
            .directGrouping("directSpout").directGrouping("directSpout", "namedDirect");
        submit("spout-overloads", Topologies.baseConf(), builder.createTopology());

        // 0-3 regular: (named, tracked), (default, tracked), (default, untracked), (named, untracked);
        // 4-7 direct, the same four kinds, on namedDirect and default
        String[] streams = {"named", "default", "default", "named", "namedDirect", "default", "namedDirect", "default"};
        Await.until("8 deliveries and 4 acks", () -> recorded(Received.class).size() >= 8
            && recorded(SpoutAck.class).size() >= 4);
        Await.never("more", () -> recorded(Received.class).size() > 8 || recorded(SpoutAck.class).size() > 4,
            Duration.ofMillis(300));
        Map<Integer, Received> byK = receivedByNumber(8);
        List<Integer> directTasks = sinkTasks("directSink");
        for (int k = 0; k < 8; k++) {
            assertEquals(streams[k], byK.get(k).stream(), "stream of spout overload " + k);
            if (k >= 4) {
                assertEquals(directTasks.get(k % 2), byK.get(k).taskId(), "task reached by direct spout overload " + k);
            }
        }
        Map<Object, Boolean> acks = new TreeMap<>();
        for (SpoutAck a : recorded(SpoutAck.class)) {
            acks.put(a.msgId(), a.acked());
        }
        assertEquals(Map.of(0, true, 1, true, 4, true, 5, true), acks, "acks of the tracked overloads only");
    }

    private Map<Integer, Received> receivedByNumber(int count) {
        Map<Integer, Received> byK = new TreeMap<>();
        for (Received r : recorded(Received.class)) {
            Received before = byK.put((Integer) r.values().get(0), r);
            assertEquals(null, before, "delivered twice: " + r);
        }
        assertEquals(count, byK.size(), "one delivery per overload: " + byK);
        return byK;
    }

    private List<Integer> sinkTasks(String component) {
        return Recorder.all(scope, SinkTasks.class).stream().filter(t -> t.component().equals(component))
            .findFirst().orElseThrow().tasks();
    }

    /** The task ids of a sink component, as a sink saw them in prepare. */
    record SinkTasks(String component, List<Integer> tasks) {
    }

    /**
     * Re-emits input k with overload k of its collector: the regular relay takes 0-5, the direct relay 6-11 (to task
     * k mod 2 of the direct sink); every input is acked.
     */
    static final class OverloadBolt extends BaseRichBolt {
        private final boolean direct;
        private transient OutputCollector collector;
        private transient List<Integer> sinkTasks;

        OverloadBolt(boolean direct) {
            this.direct = direct;
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.sinkTasks = context.getComponentTasks("directSink");
        }

        @Override
        public void execute(Tuple input) {
            int k = input.getInteger(0);
            Values v = new Values(k);
            if (!direct) {
                switch (k) {
                    case 0 -> collector.emit("named", input, v);
                    case 1 -> collector.emit("named", v);
                    case 2 -> collector.emit(List.of(input), v);
                    case 3 -> collector.emit(input, v);
                    case 4 -> collector.emit(v);
                    case 5 -> collector.emit("named", List.of(input), v);
                    default -> { }
                }
            } else if (k >= 6) {
                int task = sinkTasks.get(k % 2);
                switch (k) {
                    case 6 -> collector.emitDirect(task, "namedDirect", input, v);
                    case 7 -> collector.emitDirect(task, "namedDirect", v);
                    case 8 -> collector.emitDirect(task, List.of(input), v);
                    case 9 -> collector.emitDirect(task, input, v);
                    case 10 -> collector.emitDirect(task, v);
                    default -> collector.emitDirect(task, "namedDirect", List.of(input), v);
                }
            }
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declareStream(Utils.DEFAULT_STREAM_ID, direct, new Fields("k"));
            declarer.declareStream(direct ? "namedDirect" : "named", direct, new Fields("k"));
        }
    }

    /** Emits each of four spout collector overloads once (regular or direct ones), values 0-3 or 4-7. */
    static final class OverloadSpout extends BaseRichSpout {
        private final String scope;
        private final boolean direct;
        private transient SpoutOutputCollector collector;
        private transient List<Integer> sinkTasks;
        private transient boolean done;

        OverloadSpout(String scope, boolean direct) {
            this.scope = scope;
            this.direct = direct;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            this.sinkTasks = context.getComponentTasks("directSink");
        }

        @Override
        public void nextTuple() {
            if (done) {
                return;
            }
            done = true;
            if (!direct) {
                collector.emit("named", new Values(0), 0);
                collector.emit(new Values(1), 1);
                collector.emit(new Values(2));
                collector.emit("named", new Values(3));
            } else {
                collector.emitDirect(sinkTasks.get(0), "namedDirect", new Values(4), 4);
                collector.emitDirect(sinkTasks.get(1), new Values(5), 5);
                collector.emitDirect(sinkTasks.get(0), "namedDirect", new Values(6));
                collector.emitDirect(sinkTasks.get(1), new Values(7));
            }
        }

        @Override
        public void ack(Object msgId) {
            Recorder.record(scope, new SpoutAck("spout", 0, msgId, true));
        }

        @Override
        public void fail(Object msgId) {
            Recorder.record(scope, new SpoutAck("spout", 0, msgId, false));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declareStream(Utils.DEFAULT_STREAM_ID, direct, new Fields("k"));
            declarer.declareStream(direct ? "namedDirect" : "named", direct, new Fields("k"));
        }
    }

    /** Records each tuple, then acks it (or fails it). */
    static class AckingSink extends BaseRichBolt {
        private final String scope;
        private final boolean fail;
        private transient OutputCollector collector;
        private transient TopologyContext context;

        AckingSink(String scope) {
            this(scope, false);
        }

        AckingSink(String scope, boolean fail) {
            this.scope = scope;
            this.fail = fail;
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.context = context;
            String id = context.getThisComponentId();
            Recorder.record(scope, new SinkTasks(id, context.getComponentTasks(id)));
        }

        @Override
        public void execute(Tuple input) {
            Recorder.record(scope, new Received(context.getThisComponentId(), context.getThisTaskId(),
                input.getSourceComponent(), input.getSourceTask(), input.getSourceStreamId(), input.getValues()));
            if (fail) {
                collector.fail(input);
            } else {
                collector.ack(input);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Records each tuple, then fails it. */
    static final class FailingSink extends AckingSink {
        FailingSink(String scope) {
            super(scope, true);
        }
    }
}
