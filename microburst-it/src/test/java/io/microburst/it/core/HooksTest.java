package io.microburst.it.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.it.support.Await;
import io.microburst.it.support.ClusterTestSupport;
import io.microburst.it.support.Emission;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.HookEvent;
import io.microburst.it.support.RecordingTaskHook;
import io.microburst.it.support.RecordingWorkerHook;
import io.microburst.it.support.SpoutAck;
import io.microburst.it.support.Topologies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

/** Task hooks (from topology.auto.task.hooks and from addTaskHook) and worker hooks see what the tasks do. */
class HooksTest extends ClusterTestSupport {
    private static final int TUPLES = 10;

    @Test
    void autoTaskHooksSeeEmitsExecutesAcksAndFails() throws Exception {
        String name = submitJudgedTopology();
        awaitAllTreesCompleted();
        Await.until("hook callbacks for every tuple", () -> events("auto.spoutAck", "spout").size() == TUPLES / 2
            && events("auto.spoutFail", "spout").size() == TUPLES / 2 && events("auto.boltExecute", "judge").size() == TUPLES);

        // Only the default stream: Storm's spouts also emit to its internal acker streams.
        List<HookEvent> emits = events("auto.emit", "spout").stream().filter(e -> e.detail().startsWith("default "))
            .collect(Collectors.toList());
        assertEquals(TUPLES, emits.size(), "the spout's emits: " + emits);
        int judgeTask = events("auto.prepare", "judge").get(0).taskId();
        for (HookEvent emit : emits) {
            assertTrue(emit.detail().endsWith(" to [" + judgeTask + "]"), "emit info carries the target tasks: " + emit.detail());
        }
        assertEquals(Set.of("0", "2", "4", "6", "8"), details("auto.spoutAck", "spout"), "acked message ids");
        assertEquals(Set.of("1", "3", "5", "7", "9"), details("auto.spoutFail", "spout"), "failed message ids");
        assertEquals(Set.of("[0]", "[2]", "[4]", "[6]", "[8]"), details("auto.boltAck", "judge"));
        assertEquals(Set.of("[1]", "[3]", "[5]", "[7]", "[9]"), details("auto.boltFail", "judge"));

        Topologies.killAndAwaitGone(cluster, name);
        Await.until("hook cleanup on the user tasks", () -> events("auto.cleanup", "judge").size() == 1
            && events("auto.cleanup", "spout").size() == 1);
    }

    @Test
    void hooksAddedInPrepareSeeTheTaskToo() throws Exception {
        submitJudgedTopology();
        Await.until("the added hook to see every execute", () -> events("added.boltExecute", "judge").size() == TUPLES);
        Await.until("the added hook to see every ack and fail",
            () -> events("added.boltAck", "judge").size() == TUPLES / 2 && events("added.boltFail", "judge").size() == TUPLES / 2);
        assertTrue(events("added.boltExecute", "spout").isEmpty(), "a hook added by the judge belongs to the judge's task only");
    }

    @Test
    void workerHookStartsAndShutsDown() throws Exception {
        String name = submitJudgedTopology();
        Await.until("worker hook start", () -> events("start", "worker").size() == 1);
        assertEquals(name, events("start", "worker").get(0).detail(), "start receives the topology configuration");
        Topologies.killAndAwaitGone(cluster, name);
        Await.until("worker hook shutdown", () -> events("shutdown", "worker").size() == 1);
    }

    private String submitJudgedTopology() throws Exception {
        List<Emission> emissions = new ArrayList<>();
        for (int n = 0; n < TUPLES; n++) {
            emissions.add(Emission.of("default", n));
        }
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new FixedTuplesSpout(scope, Map.of("default", new Fields("n")), emissions, true), 1);
        builder.setBolt("judge", new JudgeBolt(scope), 1).shuffleGrouping("spout");
        builder.addWorkerHook(new RecordingWorkerHook(scope));
        Config conf = Topologies.baseConf();
        conf.put(Config.TOPOLOGY_AUTO_TASK_HOOKS, List.of(RecordingTaskHook.class.getName()));
        conf.put(RecordingTaskHook.SCOPE_KEY, scope);
        return submit("hooks", conf, builder.createTopology());
    }

    private void awaitAllTreesCompleted() {
        Await.until("the spout to see every tuple acked or failed", () -> recorded(SpoutAck.class).size() == TUPLES);
    }

    private List<HookEvent> events(String callback, String component) {
        return recorded(HookEvent.class).stream().filter(e -> e.callback().equals(callback) && e.component().equals(component))
            .collect(Collectors.toList());
    }

    private Set<String> details(String callback, String component) {
        return events(callback, component).stream().map(HookEvent::detail).collect(Collectors.toSet());
    }

    /** Acks even numbers and fails odd ones; adds its own task hook in prepare. */
    static final class JudgeBolt extends BaseRichBolt {
        private final String scope;
        private transient OutputCollector collector;

        JudgeBolt(String scope) {
            this.scope = scope;
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            RecordingTaskHook added = new RecordingTaskHook(scope, "added");
            added.prepare(topoConf, context);
            context.addTaskHook(added);
        }

        @Override
        public void execute(Tuple input) {
            if (input.getInteger(0) % 2 == 0) {
                collector.ack(input);
            } else {
                collector.fail(input);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
