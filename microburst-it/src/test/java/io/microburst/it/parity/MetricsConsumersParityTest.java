package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.it.support.Recorder;
import io.microburst.it.support.RecordingTaskHook;
import io.microburst.it.support.SpoutAck;
import io.microburst.it.support.Topologies;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.metric.api.CountMetric;
import org.apache.storm.metric.api.IMetricsConsumer;
import org.apache.storm.metric.api.MultiCountMetric;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.IErrorReporter;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

/**
 * Metrics consumers as Storm runs them: on their own thread (a consumer stuck in handleDataPoints does not stall the
 * topology), with the registration's whitelist/blacklist and expandMapType/metricNameSeparator applied, Map values
 * expanded before the names are filtered.
 */
class MetricsConsumersParityTest extends ParityTestSupport {
    private static final int TUPLES = 20;
    private static final Duration LIMIT = Duration.ofSeconds(90);
    private static final String PREFIX = "__metrics_" + NameRecordingConsumer.class.getName();

    @Test
    void aConsumerStuckInHandleDataPointsDoesNotStallTheTopology() throws Exception {
        for (String runtime : RUNTIMES) {
            String[] used = new String[1];
            try {
                Run run = runOn(runtime, "stuck-consumer", scope -> {
                    used[0] = scope;
                    return gated(scope);
                }, stuckConsumerConf(), events -> events.stream().filter(SpoutAck.class::isInstance).count() == TUPLES,
                    LIMIT);
                List<SpoutAck> acks = run.all(SpoutAck.class);
                assertTrue(acks.stream().allMatch(SpoutAck::acked), runtime + ": " + acks);
                // still inside its first call when the last tuple completed
                assertEquals(1, run.all(ConsumerCalled.class).size(), runtime + ": consumer calls");
            } finally {
                StuckConsumer.release(used[0]);
            }
        }
    }

    @Test
    void whitelistBlacklistAndExpandMapTypeDeliverTheSameNames() throws Exception {
        Map<String, Map<String, Set<String>>> names = new TreeMap<>();
        for (String runtime : RUNTIMES) {
            Run run = runOn(runtime, "filtered", MetricsConsumersParityTest::metered, filteredConf(),
                MetricsConsumersParityTest::allCounted, LIMIT);
            Map<String, Set<String>> byConsumer = new TreeMap<>();
            for (Seen seen : run.all(Seen.class)) {
                byConsumer.computeIfAbsent(seen.consumer(), k -> new TreeSet<>()).add(seen.name());
            }
            names.put(runtime, byConsumer);
        }
        Map<String, Set<String>> expected = new TreeMap<>(Map.of(
            PREFIX, Set.of("multi.a", "multi.b"),
            PREFIX + "#2", Set.of("plain"),
            PREFIX + "#3", Set.of("multi/b"),
            PREFIX + "#4", Set.of("multi")));
        assertEquals(expected, names.get("storm"), "Storm");
        assertEquals(names.get("storm"), names.get("microburst"), "Microburst");
    }

    @Test
    void aRegistrationWithBothWhitelistAndBlacklistIsRefused() throws Exception {
        Config conf = new Config();
        conf.put(Config.TOPOLOGY_METRICS_CONSUMER_REGISTER, List.of(Map.of("class", NameRecordingConsumer.class.getName(),
            "parallelism.hint", 1, "whitelist", List.of("a"), "blacklist", List.of("b"))));
        for (String runtime : RUNTIMES) {
            ILocalCluster cluster = cluster(runtime);
            String name = Topologies.uniqueName("both-lists");
            try {
                Exception refused = assertThrows(Exception.class,
                    () -> cluster.submitTopology(name, conf, metered("unused-" + runtime)), runtime);
                if (runtime.equals("microburst")) {
                    assertTrue(String.valueOf(refused.getMessage()).contains(PREFIX), refused.toString());
                }
            } finally {
                if (Topologies.isListed(cluster, name)) {
                    Topologies.killAndAwaitGone(cluster, name);
                }
            }
        }
    }

    private static Config stuckConsumerConf() {
        Config conf = Topologies.baseConf();
        // the scope arrives with the topology configuration, read by the consumer in prepare
        conf.put(Config.TOPOLOGY_METRICS_CONSUMER_REGISTER, List.of(Map.of("class", StuckConsumer.class.getName(), "parallelism.hint", 1)));
        return conf;
    }

    private static Config filteredConf() {
        Config conf = Topologies.baseConf();
        String type = NameRecordingConsumer.class.getName();
        conf.put(Config.TOPOLOGY_METRICS_CONSUMER_REGISTER, List.of(
            Map.of("class", type, "parallelism.hint", 1, "expandMapType", true, "whitelist", List.of("^multi")),
            Map.of("class", type, "parallelism.hint", 1, "blacklist", List.of("^multi", "^__")),
            // matches only a name the expansion makes: the expansion comes first
            Map.of("class", type, "parallelism.hint", 1, "expandMapType", true, "metricNameSeparator", "/", "whitelist", List.of("^multi/b$")),
            Map.of("class", type, "parallelism.hint", 1, "whitelist", List.of("^multi$"))));
        return conf;
    }

    /** Every consumer saw all the counts of the spout's metrics. */
    private static boolean allCounted(List<Object> events) {
        Map<String, Long> totals = new TreeMap<>();
        for (Object event : events) {
            if (event instanceof Seen seen) {
                if (seen.value() instanceof Map<?, ?> map) {
                    map.forEach((k, v) -> totals.merge(seen.consumer() + " " + seen.name() + "." + k,
                        ((Number) v).longValue(), Long::sum));
                } else {
                    totals.merge(seen.consumer() + " " + seen.name(), ((Number) seen.value()).longValue(), Long::sum);
                }
            }
        }
        return totals.getOrDefault(PREFIX + " multi.a", 0L) == TUPLES
            && totals.getOrDefault(PREFIX + " multi.b", 0L) == 2 * TUPLES
            && totals.getOrDefault(PREFIX + "#2 plain", 0L) == TUPLES
            && totals.getOrDefault(PREFIX + "#3 multi/b", 0L) == 2 * TUPLES
            && totals.getOrDefault(PREFIX + "#4 multi.a", 0L) == TUPLES;
    }

    private static StormTopology gated(String scope) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("gated", new GatedSpout(scope));
        builder.setBolt("acking", new AckingBolt()).shuffleGrouping("gated");
        return builder.createTopology();
    }

    private static StormTopology metered(String scope) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("metered", new MeteredSpout());
        return builder.createTopology();
    }

    /** A consumer call, recorded when it starts. */
    record ConsumerCalled(long timestampSecs) {
    }

    /** A data point a consumer received. */
    record Seen(String consumer, String name, Object value) {
    }

    /** Blocks in its first handleDataPoints until released or interrupted; until then the spout emits nothing. */
    public static final class StuckConsumer implements IMetricsConsumer {
        private static final Map<String, CountDownLatch> RELEASES = new ConcurrentHashMap<>();
        static final Set<String> STUCK = ConcurrentHashMap.newKeySet();
        private String scope;

        static void release(String scope) {
            if (scope != null) {
                latch(scope).countDown();
                RELEASES.remove(scope);
                STUCK.remove(scope);
            }
        }

        private static CountDownLatch latch(String scope) {
            return RELEASES.computeIfAbsent(scope, k -> new CountDownLatch(1));
        }

        @Override
        public void prepare(Map<String, Object> conf, Object argument, TopologyContext context, IErrorReporter errors) {
            scope = (String) conf.get(RecordingTaskHook.SCOPE_KEY);
        }

        @Override
        public void handleDataPoints(TaskInfo taskInfo, Collection<DataPoint> dataPoints) {
            Recorder.record(scope, new ConsumerCalled(taskInfo.timestamp));
            STUCK.add(scope);
            try {
                latch(scope).await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void cleanup() {
        }
    }

    /** Counts its polls in a 1 s metric; emits its tuples, reliably, only once the consumer is stuck. */
    static final class GatedSpout extends BaseRichSpout {
        private final String scope;
        private transient SpoutOutputCollector collector;
        private transient TopologyContext context;
        private transient CountMetric polls;
        private transient int emitted;

        GatedSpout(String scope) {
            this.scope = scope;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.context = context;
            this.collector = collector;
            this.polls = context.registerMetric("polls", new CountMetric(), 1);
        }

        @Override
        public void nextTuple() {
            polls.incr();
            if (emitted < TUPLES && StuckConsumer.STUCK.contains(scope)) {
                collector.emit(new Values(emitted), emitted);
                emitted++;
            }
        }

        @Override
        public void ack(Object msgId) {
            Recorder.record(scope, new SpoutAck(context.getThisComponentId(), context.getThisTaskId(), msgId, true));
        }

        @Override
        public void fail(Object msgId) {
            Recorder.record(scope, new SpoutAck(context.getThisComponentId(), context.getThisTaskId(), msgId, false));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    static final class AckingBolt extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Counts into a map-valued metric (a: 1, b: 2 per poll) and a plain one, TUPLES polls in all; emits nothing. */
    static final class MeteredSpout extends BaseRichSpout {
        private transient MultiCountMetric multi;
        private transient CountMetric plain;
        private transient int polls;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            multi = context.registerMetric("multi", new MultiCountMetric(), 1);
            plain = context.registerMetric("plain", new CountMetric(), 1);
        }

        @Override
        public void nextTuple() {
            if (polls < TUPLES) {
                multi.scope("a").incr();
                multi.scope("b").incrBy(2);
                plain.incr();
                polls++;
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Records the spout's data points with the consumer component that received them. */
    public static final class NameRecordingConsumer implements IMetricsConsumer {
        private String scope;
        private String consumer;

        @Override
        public void prepare(Map<String, Object> conf, Object argument, TopologyContext context, IErrorReporter errors) {
            scope = (String) conf.get(RecordingTaskHook.SCOPE_KEY);
            consumer = context.getThisComponentId();
        }

        @Override
        public void handleDataPoints(TaskInfo taskInfo, Collection<DataPoint> dataPoints) {
            if (!taskInfo.srcComponentId.equals("metered")) {
                return;
            }
            for (DataPoint p : dataPoints) {
                Object value = p.value instanceof Map<?, ?> map ? new LinkedHashMap<>(map) : p.value;
                Recorder.record(scope, new Seen(consumer, p.name, value));
            }
        }

        @Override
        public void cleanup() {
        }
    }
}
