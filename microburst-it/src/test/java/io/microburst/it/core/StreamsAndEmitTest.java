package io.microburst.it.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.it.support.Await;
import io.microburst.it.support.ClusterTestSupport;
import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.Emission;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.Received;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.Topologies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
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

/** Several streams per component, the task ids emit returns, direct emits, and emits that must fail at the call. */
class StreamsAndEmitTest extends ClusterTestSupport {
    private static final int TUPLES = 10;

    @Test
    void eachStreamReachesOnlyItsSubscribers() throws Exception {
        List<Emission> emissions = new ArrayList<>();
        for (int n = 0; n < TUPLES; n++) {
            emissions.add(Emission.of(n % 2 == 0 ? "even" : "odd", n));
        }
        Map<String, Fields> streams = new LinkedHashMap<>();
        streams.put("even", new Fields("n"));
        streams.put("odd", new Fields("n"));
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new FixedTuplesSpout(scope, streams, emissions, false), 1);
        builder.setBolt("evenSink", new CollectingBolt(scope), 2).shuffleGrouping("spout", "even");
        builder.setBolt("oddSink", new CollectingBolt(scope), 2).shuffleGrouping("spout", "odd");
        builder.setBolt("bothSink", new CollectingBolt(scope), 1).shuffleGrouping("spout", "even").shuffleGrouping("spout", "odd");
        submit("streams", Topologies.baseConf(), builder.createTopology());

        Await.until("20 deliveries", () -> recorded(Received.class).size() >= 2 * TUPLES);
        Await.never("extra deliveries", () -> recorded(Received.class).size() > 2 * TUPLES, Duration.ofMillis(300));
        assertEquals(List.of(0, 2, 4, 6, 8), numbersAt("evenSink", "even"));
        assertEquals(List.of(1, 3, 5, 7, 9), numbersAt("oddSink", "odd"));
        assertEquals(List.of(0, 2, 4, 6, 8), numbersAt("bothSink", "even"));
        assertEquals(List.of(1, 3, 5, 7, 9), numbersAt("bothSink", "odd"));
    }

    @Test
    void aTupleDescribesItsSourceStreamAndFields() throws Exception {
        Map<String, Fields> streams = new LinkedHashMap<>();
        streams.put("pairs", new Fields("a", "b"));
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("pairSpout", new FixedTuplesSpout(scope, streams, List.of(Emission.of("pairs", 7, "x")), false), 1);
        builder.setBolt("describer", new DescribingBolt(scope), 1).shuffleGrouping("pairSpout", "pairs");
        submit("describe", Topologies.baseConf(), builder.createTopology());

        Await.until("the tuple", () -> !recorded(Description.class).isEmpty());
        Description d = recorded(Description.class).get(0);
        assertEquals("pairSpout", d.component());
        assertEquals("pairs", d.stream());
        assertEquals("pairSpout:pairs", d.globalStream());
        assertEquals("pairSpout", d.componentOfSourceTask());
        assertEquals(List.of("a", "b"), d.fields());
        assertEquals("x", d.byField());
        assertEquals(List.of("x", 7), d.selected());
        assertEquals(1, d.indexOfB());
        assertTrue(d.text().contains("pairSpout") && d.text().contains("pairs") && d.text().contains("7"), d.text());
    }

    @Test
    void emitReturnsTheTaskIdsThatReceiveTheTuple() throws Exception {
        submitProbeTopology();
        Await.until("every regular emit delivered", () -> count("outAll") == 2L * TUPLES && count("outFields") == TUPLES);
        List<EmitOutcome> outcomes = outcomes("out");
        assertEquals(TUPLES, outcomes.size());
        for (EmitOutcome outcome : outcomes) {
            Set<Integer> receivers = recorded(Received.class).stream()
                .filter(r -> r.stream().equals("out") && r.values().get(0).equals(outcome.n()))
                .map(Received::taskId).collect(Collectors.toSet());
            assertEquals(3, outcome.returned().size(), "2 all-grouped tasks + 1 fields-grouped task: " + outcome);
            assertEquals(receivers, new HashSet<>(outcome.returned()), "returned ids vs receivers of " + outcome.n());
        }
    }

    @Test
    void spoutEmitReturnsTheTaskIdsThatReceiveTheTuple() throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new ReturnRecordingSpout(scope, TUPLES), 1);
        builder.setBolt("outAll", new CollectingBolt(scope), 2).allGrouping("spout");
        builder.setBolt("outFields", new CollectingBolt(scope), 3).fieldsGrouping("spout", new Fields("n"));
        submit("spoutemit", Topologies.baseConf(), builder.createTopology());
        Await.until("every spout emit delivered", () -> count("outAll") == 2L * TUPLES && count("outFields") == TUPLES);
        List<EmitOutcome> outcomes = outcomes("spout");
        assertEquals(TUPLES, outcomes.size());
        for (EmitOutcome outcome : outcomes) {
            Set<Integer> receivers = recorded(Received.class).stream().filter(r -> r.values().get(0).equals(outcome.n()))
                .map(Received::taskId).collect(Collectors.toSet());
            assertEquals(3, outcome.returned().size(), "2 all-grouped tasks + 1 fields-grouped task: " + outcome);
            assertEquals(receivers, new HashSet<>(outcome.returned()), "returned ids vs receivers of " + outcome.n());
        }
    }

    @Test
    void emitDirectReachesTheChosenTaskOnly() throws Exception {
        submitProbeTopology();
        Await.until("every direct emit delivered", () -> count("directSink") == TUPLES);
        for (EmitOutcome outcome : outcomes("direct")) {
            List<Integer> receivers = recorded(Received.class).stream()
                .filter(r -> r.component().equals("directSink") && r.values().get(0).equals(outcome.n()))
                .map(Received::taskId).collect(Collectors.toList());
            assertEquals(List.of(outcome.chosenTask()), receivers, "receivers of " + outcome.n());
        }
        assertEquals(3, recorded(Received.class).stream().filter(r -> r.component().equals("directSink"))
            .map(Received::taskId).distinct().count(), "the probe spreads direct emits over the 3 tasks");
    }

    @Test
    void emittingTheWrongNumberOfValuesFailsAtTheCall() throws Exception {
        EmitOutcome outcome = probe("wrongArity");
        assertNotNull(outcome.error(), "emit of 2 values on a 1-field stream must throw: " + outcome);
        assertNotNull(outcome.message(), "the exception must say why");
    }

    @Test
    void emitDirectToTheTaskIdOfStormsAckerNamesIt() throws Exception {
        assumeMicroburst("Storm's acker task would receive such a tuple");
        EmitOutcome outcome = probe("directToAcker");
        assertNotNull(outcome.error(), "emitDirect to the acker's reserved task id must throw: " + outcome);
        assertTrue(String.valueOf(outcome.message()).contains("'__acker'"), "the message must name the acker: " + outcome);
    }

    @Test
    void emittingOnAnUndeclaredStreamFailsAtTheCall() throws Exception {
        EmitOutcome outcome = probe("undeclared");
        assertNotNull(outcome.error(), "emit on an undeclared stream must throw: " + outcome);
        assertTrue(String.valueOf(outcome.message()).contains("nosuch"), "the message must name the stream: " + outcome);
    }

    @Test
    void emitDirectOnARegularStreamFailsAtTheCall() throws Exception {
        EmitOutcome outcome = probe("directOnRegular");
        assertNotNull(outcome.error(), "emitDirect on a stream subscribed with shuffle must throw: " + outcome);
    }

    @Test
    void regularEmitOnADirectStreamFailsAtTheCall() throws Exception {
        EmitOutcome outcome = probe("regularOnDirect");
        assertNotNull(outcome.error(), "a regular emit on a direct stream must throw: " + outcome);
    }

    @Test
    void emitDirectToATaskThatDoesNotConsumeTheStreamFailsAtTheCall() throws Exception {
        assumeMicroburst("Storm drops such a tuple silently and returns no task");
        EmitOutcome outcome = probe("directToNonConsumer");
        assertNotNull(outcome.error(), "emitDirect to a task not subscribed to the stream must throw: " + outcome);
        assertNotNull(outcome.message(), "the exception must say why");
        assertTrue(outcome.message().contains("the tasks consuming it are"), "and name the consumers: " + outcome);
    }

    @Test
    void aFailedEmitLeavesTheTaskWorking() throws Exception {
        submitProbeTopology();
        Await.until("all probes and regular emits", () -> outcomes("out").size() == TUPLES && count("outFields") == TUPLES);
        assertNull(outcomes("out").get(TUPLES - 1).error());
    }

    private EmitOutcome probe(String label) throws Exception {
        submitProbeTopology();
        Await.until("probe " + label, () -> !outcomes(label).isEmpty());
        return outcomes(label).get(0);
    }

    private void submitProbeTopology() throws Exception {
        List<List<Object>> tuples = new ArrayList<>();
        for (int n = 0; n < TUPLES; n++) {
            tuples.add(List.of(n));
        }
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", FixedTuplesSpout.of(scope, new Fields("n"), tuples), 1);
        builder.setBolt("probe", new EmitProbeBolt(scope), 1).shuffleGrouping("spout");
        builder.setBolt("outAll", new CollectingBolt(scope), 2).allGrouping("probe", "out");
        builder.setBolt("outFields", new CollectingBolt(scope), 3).fieldsGrouping("probe", "out", new Fields("n"));
        builder.setBolt("directSink", new CollectingBolt(scope), 3).directGrouping("probe", "direct");
        submit("emit", Topologies.baseConf(), builder.createTopology());
    }

    private long count(String component) {
        return recorded(Received.class).stream().filter(r -> r.component().equals(component)).count();
    }

    private List<Integer> numbersAt(String component, String stream) {
        return recorded(Received.class).stream().filter(r -> r.component().equals(component) && r.stream().equals(stream))
            .map(r -> (Integer) r.values().get(0)).sorted().collect(Collectors.toList());
    }

    private List<EmitOutcome> outcomes(String label) {
        return recorded(EmitOutcome.class).stream().filter(o -> o.label().equals(label)).collect(Collectors.toList());
    }

    /** What one emit call did: the ids it returned, or the exception it threw. */
    record EmitOutcome(String label, Object n, Integer chosenTask, List<Integer> returned, String error, String message) {
    }

    /** Emits 0..count-1 once each, recording what each emit returned. */
    static final class ReturnRecordingSpout extends BaseRichSpout {
        private final String scope;
        private final int count;
        private transient SpoutOutputCollector collector;
        private transient int next;

        ReturnRecordingSpout(String scope, int count) {
            this.scope = scope;
            this.count = count;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (next < count) {
                int n = next++;
                Recorder.record(scope, new EmitOutcome("spout", n, null, collector.emit(new Values(n)), null, null));
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /**
     * For each input n: a regular emit on "out" and a direct emit on "direct" to task n mod 3 of the direct sink, recording what
     * each returned. On the first input it also tries every emit that must fail, catching and recording the exception.
     */
    static final class EmitProbeBolt extends BaseRichBolt {
        private final String scope;
        private transient OutputCollector collector;
        private transient TopologyContext context;
        private transient boolean probed;

        EmitProbeBolt(String scope) {
            this.scope = scope;
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.context = context;
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            Object n = input.getValue(0);
            if (!probed) {
                probed = true;
                probeFailures(n);
            }
            Recorder.record(scope, new EmitOutcome("out", n, null, collector.emit("out", new Values(n)), null, null));
            List<Integer> directTasks = context.getComponentTasks("directSink");
            int chosen = directTasks.get(((Integer) n) % directTasks.size());
            collector.emitDirect(chosen, "direct", new Values(n));
            Recorder.record(scope, new EmitOutcome("direct", n, chosen, List.of(), null, null));
            collector.ack(input);
        }

        private void probeFailures(Object n) {
            int regularConsumer = context.getComponentTasks("outFields").get(0);
            attempt("wrongArity", n, () -> collector.emit("out", new Values(n, "extra")));
            attempt("undeclared", n, () -> collector.emit("nosuch", new Values(n)));
            attempt("directOnRegular", n, () -> {
                collector.emitDirect(regularConsumer, "out", new Values(n));
                return null;
            });
            attempt("regularOnDirect", n, () -> collector.emit("direct", new Values(n)));
            attempt("directToNonConsumer", n, () -> {
                collector.emitDirect(context.getThisTaskId(), "direct", new Values(n));
                return null;
            });
            // one worker, so one acker: Storm numbers it after the components whose ids sort before "__acker"
            int ackerTask = 1;
            for (String component : context.getComponentIds()) {
                if (!component.startsWith("__") && component.compareTo("__acker") < 0) {
                    ackerTask += context.getComponentTasks(component).size();
                }
            }
            int acker = ackerTask;
            attempt("directToAcker", n, () -> {
                collector.emitDirect(acker, "direct", new Values(n));
                return null;
            });
        }

        private void attempt(String label, Object n, Supplier<List<Integer>> emit) {
            try {
                List<Integer> returned = emit.get();
                Recorder.record(scope, new EmitOutcome(label, n, null, returned == null ? List.of() : returned, null, null));
            } catch (RuntimeException e) {
                Recorder.record(scope, new EmitOutcome(label, n, null, List.of(), e.getClass().getName(), e.getMessage()));
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declareStream("out", new Fields("n"));
            declarer.declareStream("direct", true, new Fields("n"));
        }
    }

    /** What a bolt could learn about one tuple through the accessors of {@link Tuple}. */
    record Description(String component, String stream, String globalStream, String componentOfSourceTask,
                       List<String> fields, Object byField, List<Object> selected, int indexOfB, String text) {
    }

    /** Records, for every tuple, what the tuple says about where it came from and what its fields are. */
    static final class DescribingBolt extends BaseRichBolt {
        private final String scope;

        DescribingBolt(String scope) {
            this.scope = scope;
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
        }

        @Override
        public void execute(Tuple input) {
            Recorder.record(scope, new Description(input.getSourceComponent(), input.getSourceStreamId(),
                input.getSourceGlobalStreamId().get_componentId() + ":" + input.getSourceGlobalStreamId().get_streamId(),
                input.getContext().getComponentId(input.getSourceTask()), input.getFields().toList(),
                input.getValueByField("b"), input.select(new Fields("b", "a")), input.fieldIndex("b"), input.toString()));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
