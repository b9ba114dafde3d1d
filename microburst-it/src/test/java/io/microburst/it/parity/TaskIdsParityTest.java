package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.it.support.Await;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.RecordingMetricsConsumer;
import io.microburst.it.support.Topologies;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
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
import org.junit.jupiter.api.Test;

/**
 * Every user task sees the task ids Storm's LocalCluster gives it: Storm numbers its system components ({@code __acker},
 * {@code __eventlogger}, {@code __metrics_...}) among the user's in sorted component order, and Microburst reserves the
 * same ids. Each task's view (its own id, every user component's tasks, its worker's user tasks, the task to component
 * map of user tasks) must be equal on both runtimes, for several configurations that change Storm's system components;
 * and tuples sent with {@code emitDirect} to a task id chosen from that view reach the same task.
 */
class TaskIdsParityTest extends ParityTestSupport {
    /** The user's components: "Router" sorts before Storm's "__" components, the others after. */
    private static final Set<String> USER_COMPONENTS = Set.of("words", "Router", "joiner", "sink");
    private static final int VALUES = 12;
    private static final int TASKS = 2 + 2 + 3 + 3;

    @Test
    void defaultAckers() throws Exception {
        compare("ackers-default", conf -> { });
    }

    @Test
    void noAckers() throws Exception {
        compare("ackers-0", conf -> conf.put(Config.TOPOLOGY_ACKER_EXECUTORS, 0));
    }

    @Test
    void threeAckers() throws Exception {
        compare("ackers-3", conf -> conf.put(Config.TOPOLOGY_ACKER_EXECUTORS, 3));
    }

    @Test
    void eventLoggers() throws Exception {
        compare("eventloggers", conf -> conf.put(Config.TOPOLOGY_EVENTLOGGER_EXECUTORS, 2));
    }

    @Test
    void metricsConsumer() throws Exception {
        compare("metrics-consumer", null);
    }

    /** {@code configure} null: a metrics consumer is registered (it needs the run's scope). */
    private void compare(String label, Consumer<Config> configure) throws Exception {
        Map<String, Run> runs = new TreeMap<>();
        for (String runtime : RUNTIMES) {
            Config conf = Topologies.baseConf();
            if (configure != null) {
                configure.accept(conf);
            }
            runs.put(runtime, runOn(runtime, label, scope -> {
                if (configure == null) {
                    conf.registerMetricsConsumer(RecordingMetricsConsumer.class, scope, 2);
                }
                return topology(scope);
            }, conf, TaskIdsParityTest::complete, Await.DEFAULT_LIMIT));
        }
        Map<String, Object> reference = null;
        for (Run run : runs.values()) {
            Map<String, Object> seen = new TreeMap<>();
            seen.put("views", new TreeMap<>(views(run)));
            seen.put("direct", new TreeSet<>(run.all(Direct.class).stream().map(Direct::toString).toList()));
            assertEquals(TASKS, views(run).size(), run.runtime() + ": one view per task, " + seen);
            assertEquals(VALUES, run.all(Direct.class).size(), run.runtime() + ": direct tuples, " + seen);
            if (reference == null) {
                reference = seen;
            } else {
                assertEquals(reference, seen, label + ": task views and direct deliveries, " + run.runtime()
                    + " against Storm");
            }
        }
        // the comparison can tell: numbered without Storm's system components, "joiner" would have tasks 3, 4 and 5
        List<Integer> joiner = views(runs.get(RUNTIMES.get(0))).get("Router:1").componentTasks().get("joiner");
        assertEquals(!label.equals("ackers-0"), !joiner.equals(List.of(3, 4, 5)), label + ": Storm's joiner tasks " + joiner);
    }

    private static Map<String, TaskView> views(Run run) {
        Map<String, TaskView> byTask = new TreeMap<>();
        for (TaskView v : run.all(TaskView.class)) {
            byTask.put(v.component() + ":" + v.taskId(), v);
        }
        return byTask;
    }

    private static boolean complete(List<Object> events) {
        long views = events.stream().filter(TaskView.class::isInstance).count();
        long direct = events.stream().filter(Direct.class::isInstance).count();
        return views >= TASKS && direct >= VALUES;
    }

    private static StormTopology topology(String scope) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("words", new ViewSpout(scope), 2);
        builder.setBolt("Router", new RouterBolt(scope), 2).shuffleGrouping("words");
        builder.setBolt("joiner", new ViewBolt(scope), 2).setNumTasks(3).shuffleGrouping("words");
        builder.setBolt("sink", new ViewBolt(scope), 3).directGrouping("Router", "direct");
        return builder.createTopology();
    }

    /** What one task sees of the task ids, restricted to the user's components. */
    record TaskView(String component, int taskId, Map<String, List<Integer>> componentTasks, List<Integer> workerTasks,
                    Map<Integer, String> taskToComponent) implements Serializable {
        static TaskView of(TopologyContext context) {
            Map<String, List<Integer>> componentTasks = new TreeMap<>();
            for (String c : USER_COMPONENTS) {
                componentTasks.put(c, List.copyOf(context.getComponentTasks(c)));
            }
            List<Integer> workerTasks = new ArrayList<>();
            for (Integer t : context.getThisWorkerTasks()) {
                if (USER_COMPONENTS.contains(context.getComponentId(t))) {
                    workerTasks.add(t);
                }
            }
            workerTasks.sort(null);
            Map<Integer, String> taskToComponent = new TreeMap<>();
            context.getTaskToComponent().forEach((t, c) -> {
                if (USER_COMPONENTS.contains(c)) {
                    taskToComponent.put(t, c);
                }
            });
            return new TaskView(context.getThisComponentId(), context.getThisTaskId(), componentTasks, workerTasks,
                taskToComponent);
        }
    }

    /** A value delivered with emitDirect, and the task that received it. */
    record Direct(int taskId, int value) implements Serializable {
    }

    /** Emits the values 0..VALUES-1 once between its tasks, unanchored. */
    static final class ViewSpout extends BaseRichSpout {
        private final String scope;
        private transient SpoutOutputCollector collector;
        private transient int next;
        private transient int step;

        ViewSpout(String scope) {
            this.scope = scope;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            Recorder.record(scope, TaskView.of(context));
            this.next = context.getThisTaskIndex();
            this.step = context.getComponentTasks(context.getThisComponentId()).size();
        }

        @Override
        public void nextTuple() {
            if (next < VALUES) {
                collector.emit(new Values(next));
                next += step;
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Sends each value directly to the sink task at index value % tasks of the sink's task ids, as its context lists them. */
    static final class RouterBolt extends BaseRichBolt {
        private final String scope;
        private transient OutputCollector collector;
        private transient List<Integer> sinks;

        RouterBolt(String scope) {
            this.scope = scope;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.sinks = context.getComponentTasks("sink");
            Recorder.record(scope, TaskView.of(context));
        }

        @Override
        public void execute(Tuple input) {
            int n = input.getInteger(0);
            collector.emitDirect(sinks.get(n % sinks.size()), "direct", new Values(n));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declareStream("direct", true, new Fields("n"));
        }
    }

    /** Records its view; records what it receives on the direct stream. */
    static final class ViewBolt extends BaseRichBolt {
        private final String scope;
        private transient int taskId;

        ViewBolt(String scope) {
            this.scope = scope;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.taskId = context.getThisTaskId();
            Recorder.record(scope, TaskView.of(context));
        }

        @Override
        public void execute(Tuple input) {
            if (input.getSourceStreamId().equals("direct")) {
                Recorder.record(scope, new Direct(taskId, input.getInteger(0)));
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
