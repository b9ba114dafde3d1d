package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.it.support.Await;
import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.Emission;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.HookEvent;
import io.microburst.it.support.PacedSpout;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.RecordingMetricsConsumer;
import io.microburst.it.support.RecordingMetricsConsumer.MetricPoint;
import io.microburst.it.support.RecordingTaskHook;
import io.microburst.it.support.SpoutAck;
import io.microburst.it.support.Topologies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.metric.api.CountMetric;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;
import org.junit.jupiter.api.Test;

/** What a topology can observe about itself (hooks, acks, metrics, ticks) is the same on Storm and on Microburst. */
class ObservabilityParityTest extends ParityTestSupport {
    private static final int TUPLES = 20;

    @Test
    void hooksAndAcksObserveTheSameEvents() throws Exception {
        Config conf = Topologies.baseConf();
        conf.put(Config.TOPOLOGY_AUTO_TASK_HOOKS, List.of(RecordingTaskHook.class.getName()));
        Predicate<List<Object>> done = events -> events.stream().filter(SpoutAck.class::isInstance).count() == TUPLES
            && hookCount(events, "auto.spoutAck") + hookCount(events, "auto.spoutFail") == TUPLES
            && hookCount(events, "auto.boltAck") + hookCount(events, "auto.boltFail") == TUPLES;
        Map<String, Run> runs = runOnBoth("hooks", ObservabilityParityTest::judged, conf, done, Await.DEFAULT_LIMIT);

        assertEquals(ackOutcomes(runs.get("storm")), ackOutcomes(runs.get("microburst")), "spout ack/fail per message id");
        assertEquals(hookView(runs.get("storm")), hookView(runs.get("microburst")), "hook callbacks on user components");
    }

    @Test
    void metricsConsumersReceiveTheSameTotals() throws Exception {
        Config conf = Topologies.baseConf();
        Map<String, Run> runs = new TreeMap<>();
        for (String runtime : RUNTIMES) {
            // The consumer takes its scope from its registration argument, which is fixed per run here.
            String scopeHolder = "metrics-" + runtime;
            runs.put(runtime, runOn(runtime, scopeHolder, scope -> {
                conf.registerMetricsConsumer(RecordingMetricsConsumer.class, scope, 1);
                return metered(scope);
            }, conf, events -> countTotal(events) == TUPLES, Await.DEFAULT_LIMIT));
            conf.remove(Config.TOPOLOGY_METRICS_CONSUMER_REGISTER);
        }
        for (Run run : runs.values()) {
            List<MetricPoint> points = run.all(MetricPoint.class).stream().filter(p -> p.name().equals("counted"))
                .collect(Collectors.toList());
            assertTrue(points.stream().allMatch(p -> p.intervalSecs() == 1 && p.component().equals("metered")),
                run.runtime() + ": " + points);
            assertEquals(2, points.stream().map(MetricPoint::taskId).distinct().count(), run.runtime() + ": both tasks report");
        }
    }

    @Test
    void ticksArriveAtTheConfiguredFrequency() throws Exception {
        Config conf = Topologies.baseConf();
        conf.put(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
        // Watch a window of 4 s from the first tick: at 1 s, that holds 4 or 5 ticks; allow one either way for a loaded machine.
        Predicate<List<Object>> windowSeen = events -> {
            List<Long> ticks = tickTimes(events);
            return !ticks.isEmpty() && System.nanoTime() - ticks.get(0) > Duration.ofSeconds(4).toNanos();
        };
        Map<String, Run> runs = runOnBoth("ticks", ObservabilityParityTest::ticking, conf, windowSeen, Await.DEFAULT_LIMIT);
        for (Run run : runs.values()) {
            List<Long> ticks = tickTimes(run.events());
            long inWindow = ticks.stream().filter(t -> t - ticks.get(0) <= Duration.ofSeconds(4).toNanos()).count();
            assertTrue(inWindow >= 3 && inWindow <= 6, run.runtime() + " delivered " + inWindow + " ticks in a 4 s window at 1 s");
        }
    }

    private static long hookCount(List<Object> events, String callback) {
        return events.stream().filter(HookEvent.class::isInstance).map(HookEvent.class::cast)
            .filter(e -> e.callback().equals(callback) && !e.component().startsWith("__")).count();
    }

    private static Map<Object, Boolean> ackOutcomes(Run run) {
        Map<Object, Boolean> outcomes = new TreeMap<>();
        for (SpoutAck ack : run.all(SpoutAck.class)) {
            outcomes.put(ack.msgId(), ack.acked());
        }
        return outcomes;
    }

    /**
     * Hook callbacks per user component and callback, as sorted details without task ids (ids are the runtime's to assign).
     * Internal streams and components (names starting with "__") are Storm's machinery, not the topology's.
     */
    private static Map<String, List<String>> hookView(Run run) {
        Map<String, List<String>> view = new TreeMap<>();
        for (HookEvent event : run.all(HookEvent.class)) {
            if (event.component().startsWith("__") || event.detail().startsWith("__")) {
                continue;
            }
            String detail = event.detail().contains(" from ") ? event.detail().substring(0, event.detail().indexOf(" from "))
                : event.detail();
            view.computeIfAbsent(event.component() + " " + event.callback(), k -> new ArrayList<>()).add(detail);
        }
        view.values().forEach(Collections::sort);
        return view;
    }

    private static long countTotal(List<Object> events) {
        return events.stream().filter(MetricPoint.class::isInstance).map(MetricPoint.class::cast)
            .filter(p -> p.name().equals("counted")).mapToLong(p -> ((Number) p.value()).longValue()).sum();
    }

    private static List<Long> tickTimes(List<Object> events) {
        return events.stream().filter(TickAt.class::isInstance).map(e -> ((TickAt) e).nanos()).sorted().collect(Collectors.toList());
    }

    private static StormTopology judged(String scope) {
        List<Emission> emissions = new ArrayList<>();
        for (int n = 0; n < TUPLES; n++) {
            emissions.add(Emission.of("default", n));
        }
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new FixedTuplesSpout(scope, Map.of("default", new Fields("n")), emissions, true), 1);
        builder.setBolt("judge", new JudgeBolt(), 2).shuffleGrouping("spout");
        return builder.createTopology();
    }

    private static StormTopology metered(String scope) {
        List<List<Object>> tuples = new ArrayList<>();
        for (int n = 0; n < TUPLES; n++) {
            tuples.add(List.of(n));
        }
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", FixedTuplesSpout.of(scope, new Fields("n"), tuples), 1);
        builder.setBolt("metered", new CountingMetricBolt(), 2).shuffleGrouping("spout");
        return builder.createTopology();
    }

    private static StormTopology ticking(String scope) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new PacedSpout(scope, 100), 1);
        builder.setBolt("ticked", new TickTimingBolt(scope), 1).shuffleGrouping("spout");
        return builder.createTopology();
    }

    /** Acks even numbers, fails odd ones. */
    static final class JudgeBolt extends BaseRichBolt {
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
                collector.fail(input);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Counts tuples in a v1 CountMetric with a 1 s bucket. */
    static final class CountingMetricBolt extends BaseRichBolt {
        private transient OutputCollector collector;
        private transient CountMetric counted;

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.counted = context.registerMetric("counted", new CountMetric(), 1);
        }

        @Override
        public void execute(Tuple input) {
            counted.incr();
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** When a tick arrived. */
    record TickAt(long nanos) {
    }

    static final class TickTimingBolt extends CollectingBolt {
        private transient OutputCollector collector;

        TickTimingBolt(String scope) {
            super(scope);
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            super.prepare(topoConf, context, collector);
        }

        @Override
        public void execute(Tuple input) {
            if (TupleUtils.isTick(input)) {
                Recorder.record(scope(), new TickAt(System.nanoTime()));
                collector.ack(input);
            } else {
                super.execute(input);
            }
        }
    }
}
