package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.it.support.Await;
import io.microburst.it.support.Emission;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.RecordingMetricsConsumer;
import io.microburst.it.support.RecordingMetricsConsumer.MetricPoint;
import io.microburst.it.support.Topologies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

/**
 * Storm's built-in task metrics reach metrics consumers as Storm 2.8.3 delivers them: they are v2 metrics (Storm's
 * TaskMetrics), handed to consumers with the v2 tick ({@code topology.enable.v2.metrics.tick}) under the same names, keyed by
 * stream (spout) or by input component and stream (bolt), with the same value types and, with every tuple sampled, the same
 * counts.
 */
class BuiltinMetricsParityTest extends ParityTestSupport {
    private static final int TUPLES = 20;
    /**
     * The spout's counters and their values once every tuple was acked (even) or failed (odd); the bolt reports an error
     * for two of the tuples it fails (1 and 11).
     */
    private static final Map<String, Long> SPOUT_COUNTS = Map.of("__emit-count-default", (long) TUPLES,
        "__transfer-count-default", (long) TUPLES, "__ack-count-default", TUPLES / 2L, "__fail-count-default", TUPLES / 2L,
        "__reported-error-count", 0L);
    private static final Map<String, Long> BOLT_COUNTS = Map.of("__execute-count-spout:default", (long) TUPLES,
        "__ack-count-spout:default", TUPLES / 2L, "__fail-count-spout:default", TUPLES / 2L,
        "__reported-error-count", 2L);
    /** Metrics whose value is not determined by the run (latencies, rates, queue sizes): present, and of the same type. */
    private static final List<String> SPOUT_SHAPES = List.of("__complete-latency-default", "__emit-count-default.m1_rate",
        "__ack-count-default.m1_rate", "__skipped-max-spout-ms", "__skipped-max-spout-ms.m1_rate",
        "__skipped-inactive-ms", "__skipped-inactive-ms.m1_rate", "__skipped-backpressure-ms",
        "__skipped-backpressure-ms.m1_rate");
    private static final List<String> BOLT_SHAPES = List.of("__execute-latency-spout:default", "__process-latency-spout:default",
        "__execute-count-spout:default.m1_rate", "__capacity", "receive-queue-capacity", "receive-queue-population",
        "receive-queue-pct_full", "receive-queue-arrival_rate_secs", "receive-queue-sojourn_time_ms",
        "__reported-error-count.m1_rate");

    @Test
    void builtinTaskMetricsReachConsumersAsInStorm() throws Exception {
        Config conf = Topologies.baseConf();
        conf.put(Config.TOPOLOGY_ENABLE_V2_METRICS_TICK, true);
        conf.put(Config.TOPOLOGY_V2_METRICS_TICK_INTERVAL_SECONDS, 1);
        Map<String, Run> runs = new TreeMap<>();
        for (String runtime : RUNTIMES) {
            runs.put(runtime, runOn(runtime, "builtin-" + runtime, scope -> {
                conf.registerMetricsConsumer(RecordingMetricsConsumer.class, scope, 1);
                return judged(scope);
            }, conf, BuiltinMetricsParityTest::allCounted, Await.DEFAULT_LIMIT));
            conf.remove(Config.TOPOLOGY_METRICS_CONSUMER_REGISTER);
        }
        Map<String, Map<String, Object>> reference = null;
        for (Run run : runs.values()) {
            Map<String, Map<String, Object>> latest = latest(run.events());
            for (String name : SPOUT_SHAPES) {
                assertNotNull(latest.get("spout").get(name), run.runtime() + ": spout " + name + " in " + latest.get("spout"));
            }
            for (String name : BOLT_SHAPES) {
                assertNotNull(latest.get("judge").get(name), run.runtime() + ": bolt " + name + " in " + latest.get("judge"));
            }
            assertTrue(((Number) latest.get("judge").get("receive-queue-capacity")).intValue() > 0, run.runtime());
            Map<String, Map<String, Object>> types = typesOf(latest);
            if (reference == null) {
                reference = types;
            } else {
                assertEquals(reference, types, "value types of the built-in metrics, " + run.runtime() + " against the other runtime");
            }
        }
    }

    /**
     * The spout's skipped time, in ms as Storm counts it: while it is at max spout pending (a bolt holds its only
     * pending tuple), {@code __skipped-max-spout-ms} grows; once the topology is deactivated,
     * {@code __skipped-inactive-ms} grows. On both runtimes.
     */
    @Test
    void skippedTimeIsCountedAtMaxSpoutPendingAndWhileInactive() throws Exception {
        for (String runtime : RUNTIMES) {
            ILocalCluster cluster = cluster(runtime);
            String scope = Recorder.openScope(runtime + "-skipped");
            String name = Topologies.uniqueName("skipped");
            try {
                Config conf = Topologies.baseConf();
                conf.put(Config.TOPOLOGY_ENABLE_V2_METRICS_TICK, true);
                conf.put(Config.TOPOLOGY_V2_METRICS_TICK_INTERVAL_SECONDS, 1);
                conf.setMaxSpoutPending(1);
                conf.registerMetricsConsumer(RecordingMetricsConsumer.class, scope, 1);
                List<Emission> emissions = new ArrayList<>();
                for (int n = 0; n < TUPLES; n++) {
                    emissions.add(Emission.of("default", n));
                }
                TopologyBuilder builder = new TopologyBuilder();
                builder.setSpout("spout", new FixedTuplesSpout(scope, Map.of("default", new Fields("n")), emissions, true), 1);
                builder.setBolt("judge", new HoldingBolt(), 1).shuffleGrouping("spout");
                cluster.submitTopology(name, conf, builder.createTopology());
                Await.until(runtime + ": __skipped-max-spout-ms above 0",
                    () -> latestSpout(scope, "__skipped-max-spout-ms") > 0, Await.DEFAULT_LIMIT,
                    () -> String.valueOf(latest(Recorder.all(scope)).get("spout")));
                long inactiveBefore = latestSpout(scope, "__skipped-inactive-ms");
                cluster.deactivate(name);
                Await.until(runtime + ": __skipped-inactive-ms grows once deactivated",
                    () -> latestSpout(scope, "__skipped-inactive-ms") > inactiveBefore, Await.DEFAULT_LIMIT,
                    () -> String.valueOf(latest(Recorder.all(scope)).get("spout")));
            } finally {
                try {
                    Topologies.killAndAwaitGone(cluster, name);
                } finally {
                    Recorder.closeScope(scope);
                }
            }
        }
    }

    private static long latestSpout(String scope, String metric) {
        Object value = latest(Recorder.all(scope)).get("spout").get(metric);
        return value instanceof Number n ? n.longValue() : -1;
    }

    /** Acks nothing: the spout's first tuple stays pending, so a spout with max spout pending 1 waits. */
    static final class HoldingBolt extends BaseRichBolt {
        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
        }

        @Override
        public void execute(Tuple input) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Component to metric name to value class name, for the metrics compared. */
    private static Map<String, Map<String, Object>> typesOf(Map<String, Map<String, Object>> latest) {
        Map<String, Map<String, Object>> types = new TreeMap<>();
        for (String component : List.of("spout", "judge")) {
            List<String> names = new ArrayList<>(component.equals("spout") ? SPOUT_SHAPES : BOLT_SHAPES);
            names.addAll((component.equals("spout") ? SPOUT_COUNTS : BOLT_COUNTS).keySet());
            Map<String, Object> byName = new TreeMap<>();
            for (String name : names) {
                Object value = latest.get(component).get(name);
                byName.put(name, value == null ? null : value.getClass().getSimpleName());
            }
            types.put(component, byName);
        }
        return types;
    }

    private static boolean allCounted(List<Object> events) {
        Map<String, Map<String, Object>> latest = latest(events);
        return counted(latest.get("spout"), SPOUT_COUNTS) && counted(latest.get("judge"), BOLT_COUNTS)
            && latest.get("spout").keySet().containsAll(SPOUT_SHAPES) && latest.get("judge").keySet().containsAll(BOLT_SHAPES);
    }

    private static boolean counted(Map<String, Object> values, Map<String, Long> expected) {
        for (Map.Entry<String, Long> e : expected.entrySet()) {
            Object value = values.get(e.getKey());
            if (!(value instanceof Number n) || n.longValue() != e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** The latest value of every data point, by component and name. */
    private static Map<String, Map<String, Object>> latest(List<Object> events) {
        Map<String, Map<String, Object>> latest = new TreeMap<>();
        latest.put("spout", new TreeMap<>());
        latest.put("judge", new TreeMap<>());
        for (Object event : events) {
            if (event instanceof MetricPoint p && latest.containsKey(p.component())) {
                latest.get(p.component()).put(p.name(), p.value());
            }
        }
        return latest;
    }

    private static StormTopology judged(String scope) {
        List<Emission> emissions = new ArrayList<>();
        for (int n = 0; n < TUPLES; n++) {
            emissions.add(Emission.of("default", n));
        }
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new FixedTuplesSpout(scope, Map.of("default", new Fields("n")), emissions, true), 1);
        builder.setBolt("judge", new ReportingJudgeBolt(), 1).shuffleGrouping("spout");
        return builder.createTopology();
    }

    /** Acks even numbers; fails odd ones, reporting an error for 1 and 11. */
    static final class ReportingJudgeBolt extends BaseRichBolt {
        private transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            if (input.getInteger(0) % 2 == 0) {
                collector.ack(input);
            } else {
                if (input.getInteger(0) % 10 == 1) {
                    collector.reportError(new IllegalStateException("odd number " + input.getInteger(0)));
                }
                collector.fail(input);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
