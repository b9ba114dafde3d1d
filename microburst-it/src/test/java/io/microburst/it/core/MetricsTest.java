package io.microburst.it.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.Timer;
import io.microburst.it.support.Await;
import io.microburst.it.support.ClusterTestSupport;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.RecordingMetricsConsumer;
import io.microburst.it.support.RecordingMetricsConsumer.MetricPoint;
import io.microburst.it.support.Topologies;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.metric.api.CountMetric;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

/** Metrics a task registers reach the registered consumers: v1 IMetrics in their time buckets, v2 registry metrics on the v2 tick. */
class MetricsTest extends ClusterTestSupport {
    private static final int TUPLES = 30;

    @Test
    void v1MetricsAreDeliveredPerTaskInTheirBuckets() throws Exception {
        submitMeteredTopology(false);
        Await.until("the per-task counts of the 1 s bucket to add up to " + TUPLES, () -> sumOf("tuples-1s") == TUPLES,
            Await.DEFAULT_LIMIT, () -> points("tuples-1s").toString());
        Await.until("a point from the 2 s bucket", () -> !points("tuples-2s").isEmpty());

        assertEquals(Set.of(1), points("tuples-1s").stream().map(MetricPoint::intervalSecs).collect(Collectors.toSet()));
        assertEquals(Set.of(2), points("tuples-2s").stream().map(MetricPoint::intervalSecs).collect(Collectors.toSet()));
        assertEquals(Set.of("metered"), points("tuples-1s").stream().map(MetricPoint::component).collect(Collectors.toSet()));
        Set<Integer> reportingTasks = points("tuples-1s").stream().map(MetricPoint::taskId).collect(Collectors.toSet());
        assertEquals(2, reportingTasks.size(), "each of the 2 tasks reports its own metric: " + reportingTasks);
        Await.until("the 2 s bucket to add up too", () -> sumOf("tuples-2s") == TUPLES);
    }

    @Test
    void v2RegistryMetricsWorkInsideTheTask() throws Exception {
        submitMeteredTopology(false);
        Await.until("every tuple counted", () -> Recorder.count(scope, V2Reading.class) == TUPLES);
        Map<Integer, List<V2Reading>> byTask = recorded(V2Reading.class).stream().collect(Collectors.groupingBy(V2Reading::taskId));
        for (List<V2Reading> readings : byTask.values()) {
            for (int i = 0; i < readings.size(); i++) {
                V2Reading reading = readings.get(i);
                assertEquals(i + 1, reading.counter(), "the task's counter counts the task's tuples");
                assertEquals(i + 1, reading.histogramCount());
                assertEquals(i + 1, reading.meterCount());
                assertEquals(i + 1, reading.timerCount());
                assertEquals(i + 1L, reading.gauge(), "the gauge reads the task's state");
            }
        }
    }

    @Test
    void v2RegistryMetricsReachV1ConsumersOnTheV2Tick() throws Exception {
        submitMeteredTopology(true);
        for (String name : List.of("v2counter", "v2histogram.count", "v2meter.count", "v2timer.count")) {
            Await.until(name + " of both tasks to add up to " + TUPLES, () -> latestPerTaskSum(name) == TUPLES, Await.DEFAULT_LIMIT,
                () -> points(name).toString());
        }
        Await.until("the gauge", () -> latestPerTaskSum("v2gauge") == TUPLES);
    }

    private void submitMeteredTopology(boolean v2Tick) throws Exception {
        List<List<Object>> tuples = new ArrayList<>();
        for (int n = 0; n < TUPLES; n++) {
            tuples.add(List.of(n));
        }
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", FixedTuplesSpout.of(scope, new Fields("n"), tuples), 1);
        builder.setBolt("metered", new MeteredBolt(scope), 2).shuffleGrouping("spout");
        Config conf = Topologies.baseConf();
        conf.registerMetricsConsumer(RecordingMetricsConsumer.class, scope, 1);
        if (v2Tick) {
            conf.put(Config.TOPOLOGY_ENABLE_V2_METRICS_TICK, true);
            conf.put(Config.TOPOLOGY_V2_METRICS_TICK_INTERVAL_SECONDS, 1);
        }
        submit("metrics", conf, builder.createTopology());
    }

    private List<MetricPoint> points(String name) {
        return recorded(MetricPoint.class).stream().filter(p -> p.name().equals(name)).collect(Collectors.toList());
    }

    private long sumOf(String name) {
        return points(name).stream().mapToLong(p -> ((Number) p.value()).longValue()).sum();
    }

    /** Cumulative metrics (v2): the last value each task reported, summed over tasks. */
    private long latestPerTaskSum(String name) {
        Map<Integer, Number> latest = new HashMap<>();
        for (MetricPoint point : points(name)) {
            latest.put(point.taskId(), (Number) point.value());
        }
        return latest.values().stream().mapToLong(Number::longValue).sum();
    }

    /** The v2 metrics of one task right after it counted one more tuple. */
    record V2Reading(int taskId, long counter, long histogramCount, long meterCount, long timerCount, long gauge) {
    }

    /** Counts tuples in two v1 metrics (buckets of 1 s and 2 s) and in one v2 metric of each kind. */
    static final class MeteredBolt extends BaseRichBolt {
        private final String scope;
        private transient OutputCollector collector;
        private transient TopologyContext context;
        private transient CountMetric perSecond;
        private transient CountMetric perTwoSeconds;
        private transient Counter counter;
        private transient Histogram histogram;
        private transient Meter meter;
        private transient Timer timer;
        private transient Gauge<Long> gauge;
        private transient long seen;

        MeteredBolt(String scope) {
            this.scope = scope;
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.context = context;
            this.collector = collector;
            perSecond = context.registerMetric("tuples-1s", new CountMetric(), 1);
            perTwoSeconds = context.registerMetric("tuples-2s", new CountMetric(), 2);
            counter = context.registerCounter("v2counter");
            histogram = context.registerHistogram("v2histogram");
            meter = context.registerMeter("v2meter");
            timer = context.registerTimer("v2timer");
            gauge = context.registerGauge("v2gauge", () -> seen);
        }

        @Override
        public void execute(Tuple input) {
            try (Timer.Context ignored = timer.time()) {
                seen++;
                perSecond.incr();
                perTwoSeconds.incr();
                counter.inc();
                histogram.update(input.getInteger(0));
                meter.mark();
            }
            Recorder.record(scope, new V2Reading(context.getThisTaskId(), counter.getCount(), histogram.getCount(), meter.getCount(),
                timer.getCount(), gauge.getValue()));
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
