package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.LifecycleEvent;
import io.microburst.it.support.ModuloGrouping;
import io.microburst.it.support.Received;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.Topologies;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

/** Finite, deterministic topologies give the same tuples on Storm and on Microburst, routed by the same rules. */
class OutputParityTest extends ParityTestSupport {
    private static final List<String> SENTENCES = List.of("the cow jumped over the moon", "an apple a day keeps the doctor away",
        "four score and seven years ago", "snow white and the seven dwarfs", "i am at two with nature", "the moon is made of cheese");
    private static final int KEYED_TUPLES = 30;
    private static final int BOLT_TASKS = 3;

    @Test
    void wordCountPipelineDeliversTheSameTuplesPerStream() throws Exception {
        int words = SENTENCES.stream().mapToInt(s -> s.split(" ").length).sum();
        Map<String, Run> runs = runFiniteOnBoth("wordcount", OutputParityTest::wordCount, Topologies.baseConf(), 3 * words);

        Map<String, List<String>> storm = contentByStream(runs.get("storm"));
        Map<String, List<String>> microburst = contentByStream(runs.get("microburst"));
        assertEquals(Set.of("split:length", "count:default"), storm.keySet(), "the streams the sinks subscribe to");
        assertEquals(storm, microburst, "per-stream multisets of received tuples");
        // Counting is deterministic under fields grouping: the largest count of "the" is how often it occurs (5 times).
        assertTrue(storm.get("count:default").contains("count:default:[the, 5]"), storm.get("count:default").toString());
    }

    @Test
    void everyGroupingFollowsItsRoutingRuleOnBothRuntimes() throws Exception {
        // Eight groupings deliver each tuple once, "all" delivers it to each of its tasks.
        int expected = KEYED_TUPLES * (8 + BOLT_TASKS);
        Map<String, Run> runs = runFiniteOnBoth("groupings", OutputParityTest::groupings, Topologies.baseConf(), expected);
        for (Run run : runs.values()) {
            assertRoutingRules(run);
        }
        for (String component : List.of("shuffle", "localOrShuffle", "fields", "all", "global", "none", "partialKey", "custom",
            "direct")) {
            assertEquals(contents(runs.get("storm").receivedBy(component)), contents(runs.get("microburst").receivedBy(component)),
                "tuples received by " + component);
        }
    }

    @Test
    void aPrintedTupleReadsAsOnStorm() throws Exception {
        // What a "printer" bolt shows (System.out.println(tuple)): the same text, task and sample times aside.
        Map<String, Run> runs = runFiniteOnBoth("printed", OutputParityTest::printed, Topologies.baseConf(), 2);
        List<String> storm = printedText(runs.get("storm"));
        assertEquals(2, storm.size(), storm.toString());
        assertEquals(storm, printedText(runs.get("microburst")), "Tuple.toString() of the received tuples");
    }

    private static void assertRoutingRules(Run run) {
        String on = " on " + run.runtime();
        Map<String, Set<Integer>> tasks = preparedTasks(run);
        for (String component : List.of("shuffle", "localOrShuffle", "fields", "global", "none", "partialKey", "custom", "direct")) {
            assertEquals(KEYED_TUPLES, run.receivedBy(component).size(), component + " delivers each tuple once" + on);
        }
        for (Map.Entry<Object, Set<Integer>> key : tasksByKey(run.receivedBy("fields")).entrySet()) {
            assertEquals(1, key.getValue().size(), "fields: key " + key.getKey() + " seen by tasks " + key.getValue() + on);
        }
        for (Map.Entry<Object, Set<Integer>> key : tasksByKey(run.receivedBy("partialKey")).entrySet()) {
            assertTrue(key.getValue().size() <= 2, "partialKey: key " + key.getKey() + " seen by tasks " + key.getValue() + on);
        }
        assertEquals(Set.of(Collections.min(tasks.get("global"))), taskIds(run.receivedBy("global")), "global: the lowest task" + on);
        Map<Integer, List<Received>> allByTask = run.receivedBy("all").stream().collect(Collectors.groupingBy(Received::taskId));
        assertEquals(tasks.get("all"), allByTask.keySet(), "all: every task" + on);
        for (List<Received> ofTask : allByTask.values()) {
            assertEquals(KEYED_TUPLES, ofTask.size(), "all: every tuple at every task" + on);
        }
        Map<Object, Integer> chosen = new HashMap<>();
        for (DirectChoice choice : run.all(DirectChoice.class)) {
            chosen.put(choice.n(), choice.task());
        }
        for (Received received : run.receivedBy("direct")) {
            assertEquals(chosen.get(received.values().get(1)), received.taskId(), "direct: the chosen task" + on);
        }
        List<Integer> customTargets = run.all(ModuloGrouping.GroupingPrepared.class).get(0).targetTasks();
        for (Received received : run.receivedBy("custom")) {
            int n = (Integer) received.values().get(1);
            assertEquals(customTargets.get(n % customTargets.size()).intValue(), received.taskId(), "custom: its choice" + on);
        }
    }

    private static StormTopology wordCount(String scope) {
        List<List<Object>> sentences = new ArrayList<>();
        for (String sentence : SENTENCES) {
            sentences.add(List.of(sentence));
        }
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("sentences", FixedTuplesSpout.of(scope, new Fields("sentence"), sentences), 2);
        builder.setBolt("split", new SplitBolt(), 2).shuffleGrouping("sentences");
        builder.setBolt("count", new CountBolt(), 3).fieldsGrouping("split", "word", new Fields("word"));
        builder.setBolt("countSink", new CollectingBolt(scope), 2).shuffleGrouping("count");
        builder.setBolt("lengthSink", new CollectingBolt(scope), 2).allGrouping("split", "length");
        return builder.createTopology();
    }

    private static StormTopology groupings(String scope) {
        List<List<Object>> tuples = new ArrayList<>();
        for (int n = 0; n < KEYED_TUPLES; n++) {
            tuples.add(List.of("k" + (n % 7), n));
        }
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", FixedTuplesSpout.of(scope, new Fields("key", "n"), tuples), 2);
        builder.setBolt("shuffle", new CollectingBolt(scope), BOLT_TASKS).shuffleGrouping("spout");
        builder.setBolt("localOrShuffle", new CollectingBolt(scope), BOLT_TASKS).localOrShuffleGrouping("spout");
        builder.setBolt("fields", new CollectingBolt(scope), BOLT_TASKS).fieldsGrouping("spout", new Fields("key"));
        builder.setBolt("all", new CollectingBolt(scope), BOLT_TASKS).allGrouping("spout");
        builder.setBolt("global", new CollectingBolt(scope), BOLT_TASKS).globalGrouping("spout");
        builder.setBolt("none", new CollectingBolt(scope), BOLT_TASKS).noneGrouping("spout");
        builder.setBolt("partialKey", new CollectingBolt(scope), BOLT_TASKS).partialKeyGrouping("spout", new Fields("key"));
        builder.setBolt("custom", new CollectingBolt(scope), BOLT_TASKS).customGrouping("spout", new ModuloGrouping(scope, 1));
        builder.setBolt("router", new DirectRouterBolt(scope), 1).shuffleGrouping("spout");
        builder.setBolt("direct", new CollectingBolt(scope), BOLT_TASKS).directGrouping("router");
        return builder.createTopology();
    }

    private static StormTopology printed(String scope) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("words", FixedTuplesSpout.of(scope, new Fields("word", "n"), List.of(List.of("cow", 1),
            List.of("moon", 2))), 1);
        builder.setBolt("printer", new PrintingBolt(scope), 1).shuffleGrouping("words");
        return builder.createTopology();
    }

    /** The printed tuples, with the source task and the sample times (which differ by runtime and moment) masked. */
    private static List<String> printedText(Run run) {
        return run.all(Printed.class).stream().map(p -> p.text().replaceFirst("^(source: words):\\d+,", "$1:T,")
            .replaceAll("\\(sampled\\): (null|\\d+)", "(sampled): S")).sorted().toList();
    }

    /** A tuple's {@code toString()}, as a bolt saw it. */
    record Printed(String text) {
    }

    /** Records each tuple's text, as a bolt that prints its input would show it. */
    static final class PrintingBolt extends CollectingBolt {
        PrintingBolt(String scope) {
            super(scope);
        }

        @Override
        public void execute(Tuple input) {
            Recorder.record(scope(), new Printed(input.toString()));
            super.execute(input);
        }
    }

    private static Map<String, List<String>> contentByStream(Run run) {
        Map<String, List<String>> byStream = new TreeMap<>();
        for (Received received : run.all(Received.class)) {
            byStream.computeIfAbsent(received.sourceComponent() + ":" + received.stream(), k -> new ArrayList<>())
                .add(received.contentKey());
        }
        byStream.values().forEach(Collections::sort);
        return byStream;
    }

    private static List<String> contents(List<Received> received) {
        return received.stream().map(Received::contentKey).sorted().collect(Collectors.toList());
    }

    private static Map<String, Set<Integer>> preparedTasks(Run run) {
        return run.all(LifecycleEvent.class).stream().filter(e -> e.callback().equals("prepare"))
            .collect(Collectors.groupingBy(LifecycleEvent::component, Collectors.mapping(LifecycleEvent::taskId, Collectors.toSet())));
    }

    private static Set<Integer> taskIds(List<Received> received) {
        return received.stream().map(Received::taskId).collect(Collectors.toSet());
    }

    private static Map<Object, Set<Integer>> tasksByKey(List<Received> received) {
        Map<Object, Set<Integer>> byKey = new HashMap<>();
        for (Received r : received) {
            byKey.computeIfAbsent(r.values().get(0), k -> new HashSet<>()).add(r.taskId());
        }
        return byKey;
    }

    /** Which task the router sent tuple n to. */
    record DirectChoice(Object n, int task) {
    }

    /** Emits each input directly to the task of "direct" at index n mod task count, recording the choice. */
    static final class DirectRouterBolt extends BaseRichBolt {
        private final String scope;
        private transient OutputCollector collector;
        private transient List<Integer> targets;

        DirectRouterBolt(String scope) {
            this.scope = scope;
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.targets = new ArrayList<>(context.getComponentTasks("direct"));
            Collections.sort(targets);
        }

        @Override
        public void execute(Tuple input) {
            int task = targets.get(input.getInteger(1) % targets.size());
            Recorder.record(scope, new DirectChoice(input.getValue(1), task));
            collector.emitDirect(task, input.getValues());
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(true, new Fields("key", "n"));
        }
    }

    /** Splits a sentence into words on "word" and word lengths on "length". */
    static final class SplitBolt extends BaseRichBolt {
        private transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            for (String word : input.getString(0).split(" ")) {
                collector.emit("word", input, new Values(word));
                collector.emit("length", input, new Values(word.length()));
            }
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declareStream("word", new Fields("word"));
            declarer.declareStream("length", new Fields("length"));
        }
    }

    /** Emits (word, running count) for each word it receives. */
    static final class CountBolt extends BaseRichBolt {
        private transient OutputCollector collector;
        private transient Map<String, Integer> counts;

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.counts = new HashMap<>();
        }

        @Override
        public void execute(Tuple input) {
            int count = counts.merge(input.getString(0), 1, Integer::sum);
            collector.emit(input, new Values(input.getString(0), count));
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word", "count"));
        }
    }
}
