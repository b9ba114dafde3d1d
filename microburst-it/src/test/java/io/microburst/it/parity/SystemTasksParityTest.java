package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.it.support.Await;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.TaskRecordingMetricsConsumer;
import io.microburst.it.support.TaskRecordingMetricsConsumer.Delivered;
import io.microburst.it.support.TaskRecordingMetricsConsumer.Prepared;
import io.microburst.it.support.Topologies;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.metric.api.IMetric;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The tasks of the components Storm adds to a topology, on both runtimes. A metrics consumer registered with a
 * parallelism hint of 3 runs as three tasks: three instances, each prepared with its own task id (Storm's numbering)
 * and index among its component's tasks, and each batch of data points goes to one of them, so every task gets some
 * and none gets one another got. A topology's summary counts tasks and executors as Storm's does, {@code __acker},
 * {@code __eventlogger} and {@code __metrics...} included.
 */
class SystemTasksParityTest extends ParityTestSupport {
    private static final int CONSUMER_TASKS = 3;
    private static final String METRIC = "sequence";

    @Test
    void aConsumerWithParallelismThreeRunsAsThreeTasksThatShareTheDataPoints() throws Exception {
        Map<String, Run> runs = new TreeMap<>();
        for (String runtime : RUNTIMES) {
            Config conf = Topologies.baseConf();
            runs.put(runtime, runOn(runtime, "consumer-tasks", scope -> {
                conf.registerMetricsConsumer(TaskRecordingMetricsConsumer.class, scope, CONSUMER_TASKS);
                TopologyBuilder builder = new TopologyBuilder();
                builder.setSpout("counting", new SequenceSpout(scope), 2);
                return builder.createTopology();
            }, conf, SystemTasksParityTest::everyTaskReceived, Await.DEFAULT_LIMIT));
        }
        Set<String> reference = null;
        for (Run run : runs.values()) {
            List<Prepared> prepared = run.all(Prepared.class);
            Set<String> tasks = new TreeSet<>();
            Set<String> instances = new HashSet<>();
            for (Prepared p : prepared) {
                tasks.add(p.component() + " task " + p.taskId() + " index " + p.taskIndex() + " of " + p.componentTasks());
                instances.add(p.instance());
            }
            assertEquals(CONSUMER_TASKS, prepared.size(), run.runtime() + ": consumer tasks prepared, " + tasks);
            assertEquals(CONSUMER_TASKS, instances.size(), run.runtime() + ": consumer instances");
            Map<String, Integer> receivers = new HashMap<>();
            for (Delivered d : run.all(Delivered.class)) {
                if (d.name().equals(METRIC)) {
                    String point = d.component() + ":" + d.taskId() + "#" + d.value();
                    Integer other = receivers.put(point, d.consumerTaskId());
                    assertEquals(null, other, run.runtime() + ": data point " + point + " reached consumer tasks "
                        + other + " and " + d.consumerTaskId());
                }
            }
            if (reference == null) {
                reference = tasks;
            } else {
                assertEquals(reference, tasks, "consumer tasks, " + run.runtime() + " against Storm");
            }
        }
    }

    @Test
    void summaryCountsTasksAndExecutorsAsStormDoes() throws Exception {
        Map<String, List<Integer>> counts = new TreeMap<>();
        for (String runtime : RUNTIMES) {
            for (int ackers : new int[] {1, 0}) {
                Config conf = Topologies.baseConf();
                conf.setNumAckers(ackers);
                if (ackers > 0) {
                    conf.put(Config.TOPOLOGY_EVENTLOGGER_EXECUTORS, 2);
                    conf.registerMetricsConsumer(TaskRecordingMetricsConsumer.class, "unused", 2);
                }
                counts.put(runtime + ", ackers " + ackers, summaryCounts(runtime, conf));
            }
        }
        for (int ackers : new int[] {1, 0}) {
            assertEquals(counts.get(RUNTIMES.get(0) + ", ackers " + ackers), counts.get(RUNTIMES.get(1) + ", ackers " + ackers),
                "tasks and executors in the topology summary, " + RUNTIMES.get(1) + " against Storm, ackers " + ackers
                    + ": " + counts);
        }
        // the comparison can tell: the user's components alone have 6 tasks in 5 executors
        assertEquals(List.of(6 + 1 + 2 + 2, 5 + 1 + 2 + 2), counts.get(RUNTIMES.get(0) + ", ackers 1"), counts.toString());
    }

    /**
     * Tasks and executors in the summary of a running topology of 6 user tasks in 5 executors, read once all of them
     * have started (Storm's LocalCluster can fail a kill that comes while its worker still starts).
     */
    private List<Integer> summaryCounts(String runtime, Config conf) throws Exception {
        ILocalCluster cluster = cluster(runtime);
        String name = Topologies.uniqueName("summary-counts");
        String scope = Recorder.openScope(runtime + "-" + name);
        try {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("counting", new SequenceSpout(scope), 2);
            builder.setBolt("idle", new IdleBolt(scope), 3).setNumTasks(4).shuffleGrouping("counting");
            cluster.submitTopology(name, conf, builder.createTopology());
            try {
                Await.until(runtime + ": " + name + " started", () -> Recorder.all(scope).size() == 6);
                TopologySummary s = cluster.getTopologySummaryByName(name);
                return List.of(s.get_num_tasks(), s.get_num_executors());
            } finally {
                Topologies.killAndAwaitGone(cluster, name);
            }
        } finally {
            Recorder.closeScope(scope);
        }
    }

    /** Each consumer task was prepared and has received at least one data point of the spout's metric. */
    private static boolean everyTaskReceived(List<Object> events) {
        Set<Integer> prepared = new HashSet<>();
        Set<Integer> received = new HashSet<>();
        for (Object e : events) {
            if (e instanceof Prepared p) {
                prepared.add(p.taskId());
            } else if (e instanceof Delivered d && d.name().equals(METRIC)) {
                received.add(d.consumerTaskId());
            }
        }
        return prepared.size() == CONSUMER_TASKS && received.equals(prepared);
    }

    /**
     * Emits nothing; records that it opened; its metric's value is 1, 2, 3... on each read, so every data point it
     * sends is distinct.
     */
    static final class SequenceSpout extends BaseRichSpout {
        private final String scope;

        SequenceSpout(String scope) {
            this.scope = scope;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            Recorder.record(scope, "opened " + context.getThisTaskId());
            context.registerMetric(METRIC, new IMetric() {
                private long reads;

                @Override
                public Object getValueAndReset() {
                    return ++reads;
                }
            }, 1);
        }

        @Override
        public void nextTuple() {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Records that it was prepared. */
    static final class IdleBolt extends BaseBasicBolt {
        private final String scope;

        IdleBolt(String scope) {
            this.scope = scope;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context) {
            Recorder.record(scope, "prepared " + context.getThisTaskId());
        }

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
