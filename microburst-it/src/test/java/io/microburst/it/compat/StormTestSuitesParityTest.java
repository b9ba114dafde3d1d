package io.microburst.it.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import io.microburst.it.support.Runtimes;
import io.microburst.it.support.StormHalts;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.LocalCluster;
import org.apache.storm.Testing;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.hooks.BaseTaskHook;
import org.apache.storm.hooks.info.EmitInfo;
import org.apache.storm.shade.net.minidev.json.JSONArray;
import org.apache.storm.shade.net.minidev.json.JSONObject;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.testing.AckTracker;
import org.apache.storm.testing.CompleteTopologyParam;
import org.apache.storm.testing.FeederSpout;
import org.apache.storm.testing.MockedSources;
import org.apache.storm.testing.TestConfBolt;
import org.apache.storm.testing.TestPlannerSpout;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.testing.TrackedTopology;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

/**
 * What Storm 2.8.3's own storm-core tests (TopologyIntegrationTest, TestingTest) need from a cluster, checked on
 * Storm's LocalCluster and on {@link MicroburstCluster.Builder} alike: a {@code TrackedTopology} submitted as it is,
 * subscriptions to a component's {@code __system} stream, the emit hooks Storm calls for acker messages, and the
 * component-level Kryo configuration Nimbus merges into the topology's.
 */
class StormTestSuitesParityTest {
    /** The emits each task's hook saw, as "stream:outTaskCount", by scope and component. */
    static final Map<String, List<String>> EMITS = new ConcurrentHashMap<>();

    // ---------------------------------------------------------------- tracked topologies, submitted as they are

    @Test
    void trackedTopologyIsSubmittedAsItIsOnMicroburst() throws Exception {
        try (MicroburstCluster cluster = new MicroburstCluster.Builder().withSimulatedTime().withTracked().build()) {
            FeederSpout feeder = new FeederSpout(new Fields("word"));
            AckTracker acks = new AckTracker();
            feeder.setAckFailDelegate(acks);
            TrackedTopology tracked = Testing.mkTrackedTopology(cluster, feederTopology(feeder));
            cluster.submitTopology("tracked", new Config(), tracked); // the TrackedTopology itself, as Storm's tests
            feeder.feed(new Values("a"), 1);
            feeder.feed(new Values("b"), 2);
            Testing.trackedWait(tracked, 2);
            assertEquals(2, acks.getNumAcks());

            IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                () -> cluster.submitTopology("wrong", new Config(), (Object) "not a topology"));
            assertTrue(wrong.getMessage().contains("java.lang.String"), wrong.getMessage());
        }
    }

    @Test
    void trackedTopologyIsSubmittedAsItIsOnStorm() throws Exception {
        StormHalts.guard();
        try (LocalCluster cluster = new LocalCluster.Builder().withSimulatedTime().withTracked().build()) {
            FeederSpout feeder = new FeederSpout(new Fields("word"));
            AckTracker acks = new AckTracker();
            feeder.setAckFailDelegate(acks);
            TrackedTopology tracked = Testing.mkTrackedTopology(cluster, feederTopology(feeder));
            cluster.submitTopology("tracked", new Config(), tracked);
            feeder.feed(new Values("a"), 1);
            feeder.feed(new Values("b"), 2);
            Testing.trackedWait(tracked, 2);
            assertEquals(2, acks.getNumAcks());
        }
    }

    /**
     * The overload that takes a TrackedTopology must not make storm-server a compile dependency: a program with only
     * storm-client and Microburst on its class path still compiles a plain submitTopology call.
     */
    @Test
    void submitCompilesWithoutStormServerOnTheClassPath() throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "a JDK compiler");
        // where Microburst, storm-client and its shaded dependencies come from, and nothing else
        List<String> classPath = new ArrayList<>();
        for (Class<?> type : List.of(MicroburstCluster.class, Config.class, JSONObject.class)) {
            classPath.add(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        }
        assertFalse(classPath.stream().anyMatch(e -> e.contains("storm-server")), classPath.toString());
        Path dir = Files.createTempDirectory("submit-compile");
        try {
            Path source = dir.resolve("Submit.java");
            Files.writeString(source, String.join("\n",
                "import io.microburst.MicroburstCluster;",
                "import org.apache.storm.Config;",
                "import org.apache.storm.topology.TopologyBuilder;",
                "public class Submit {",
                "    static void run(MicroburstCluster cluster, TopologyBuilder builder) throws Exception {",
                "        cluster.submitTopology(\"t\", new Config(), builder.createTopology());",
                "    }",
                "}"));
            int status = javac.run(null, null, null, "-proc:none", "-d", dir.toString(),
                "-cp", String.join(File.pathSeparator, classPath), source.toString());
            assertEquals(0, status, "javac with " + classPath);
            assertTrue(Files.exists(dir.resolve("Submit.class")));
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(Collections.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    // ---------------------------------------------------------------- the __system stream

    @Test
    void systemStreamCanBeSubscribedToOnMicroburst() throws Exception {
        try (ILocalCluster cluster = cluster(Runtimes.MICROBURST, Map.of())) {
            checkSystemStream(cluster);
            TopologyBuilder metrics = new TopologyBuilder();
            metrics.setSpout("1", new TestWordSpout(true));
            metrics.setBolt("2", new IdentityEmitter()).globalGrouping("1", "__metrics");
            InvalidTopologyException refused = assertThrows(InvalidTopologyException.class,
                () -> cluster.submitTopology("metrics", new Config(), metrics.createTopology()));
            assertNotNull(refused.getMessage());
            assertTrue(refused.getMessage().contains("'__metrics'") && refused.getMessage().contains("'1'")
                && refused.getMessage().contains("'2'"), refused.getMessage());
        }
    }

    @Test
    void systemStreamCanBeSubscribedToOnStorm() throws Exception {
        try (ILocalCluster cluster = cluster(Runtimes.STORM, Map.of())) {
            checkSystemStream(cluster);
        }
    }

    private static void checkSystemStream(ILocalCluster cluster) throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("1", new TestWordSpout(true), 3);
        builder.setBolt("2", new IdentityEmitter(), 1).fieldsGrouping("1", new Fields("word"))
            .globalGrouping("1", "__system");
        Map<String, List<org.apache.storm.testing.FixedTuple>> results = Testing.completeTopology(cluster,
            builder.createTopology(), param(Map.of("1", List.of(new Values("a"), new Values("b"), new Values("c")))));
        assertEquals(Set.of(List.of("a"), List.of("b"), List.of("c")), new HashSet<>(Testing.readTuples(results, "2")));

        TopologyBuilder unknown = new TopologyBuilder();
        unknown.setSpout("1", new TestWordSpout(true));
        unknown.setBolt("2", new IdentityEmitter()).globalGrouping("1", "no-such-stream");
        InvalidTopologyException refused = assertThrows(InvalidTopologyException.class,
            () -> cluster.submitTopology("unknown", new Config(), unknown.createTopology()));
        // Storm's message names them too: "Component: [2] subscribes from non-existent stream: [no-such-stream] ..."
        assertNotNull(refused.getMessage());
        assertTrue(refused.getMessage().contains("no-such-stream") && refused.getMessage().contains("2"),
            refused.getMessage());
    }

    // ---------------------------------------------------------------- emit hooks of acker messages

    @Test
    void emitHooksSeeAckerMessagesOnMicroburst() throws Exception {
        checkEmitHooksSeeAckerMessages(Runtimes.MICROBURST);
    }

    @Test
    void emitHooksSeeAckerMessagesOnStorm() throws Exception {
        checkEmitHooksSeeAckerMessages(Runtimes.STORM);
    }

    private static void checkEmitHooksSeeAckerMessages(String runtime) throws Exception {
        try (ILocalCluster cluster = cluster(runtime, Map.of())) {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("1", new TestPlannerSpout(new Fields("conf")));
            builder.setBolt("2", new HookCountingBolt()).shuffleGrouping("1");
            CompleteTopologyParam param = param(Map.of("1",
                List.of(new Values(1), new Values(1), new Values(1), new Values(1))));
            Map<String, Object> conf = new HashMap<>();
            conf.put(Config.TOPOLOGY_AUTO_TASK_HOOKS, List.of(RecordingHook.class.getName()));
            param.setStormConf(conf);
            EMITS.clear();
            Map<String, List<org.apache.storm.testing.FixedTuple>> results =
                Testing.completeTopology(cluster, builder.createTopology(), param);
            // as Storm's TopologyIntegrationTest.testHooks: emits seen (the bolt's own and its ack or fail), acks,
            // fails, executes, before each emit
            assertEquals(List.of(List.of(0, 0, 0, 0), List.of(2, 1, 0, 1), List.of(4, 1, 1, 2), List.of(6, 2, 1, 3)),
                Testing.readTuples(results, "2"), runtime);
            assertEquals(List.of("default:1", "__ack_ack:1", "default:1", "__ack_fail:1", "default:1", "__ack_ack:1",
                "default:1", "__ack_fail:1"), EMITS.get("2"), runtime);
            // the spout's tuples go to the bolt and to completeTopology's capturing bolt
            assertEquals(Collections.nCopies(4, List.of("default:2", "__ack_init:1")).stream()
                .flatMap(List::stream).collect(Collectors.toList()), EMITS.get("1"), runtime);
        }
    }

    // ---------------------------------------------------------------- what Nimbus and LocalCluster do at submit

    @Test
    void submitterHookIsCalledOnMicroburst() throws Exception {
        try (ILocalCluster cluster = new MicroburstCluster.Builder().withNimbusDaemon(true).build()) {
            checkSubmitterHookIsCalled(cluster);
        }
    }

    @Test
    void submitterHookIsCalledOnStorm() throws Exception {
        StormHalts.guard();
        try (ILocalCluster cluster = new LocalCluster.Builder().withNimbusDaemon(true).build()) {
            checkSubmitterHookIsCalled(cluster);
        }
    }

    private static void checkSubmitterHookIsCalled(ILocalCluster cluster) throws Exception {
        RecordingSubmitterHook.SUBMITTED.clear();
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("words", new TestWordSpout(true));
        builder.setBolt("echo", new IdentityEmitter()).shuffleGrouping("words");
        org.apache.storm.generated.StormTopology topology = builder.createTopology();
        Config conf = new Config();
        conf.put(Config.STORM_TOPOLOGY_SUBMISSION_NOTIFIER_PLUGIN, RecordingSubmitterHook.class.getName());
        cluster.submitTopology("notified", conf, topology);
        assertEquals(List.of("notified"), new ArrayList<>(RecordingSubmitterHook.SUBMITTED.keySet()));
        assertEquals(topology, RecordingSubmitterHook.SUBMITTED.get("notified"));
    }

    @Test
    void metricsConsumerOfTheDaemonConfIsNotValidatedAgainOnMicroburst() throws Exception {
        checkMetricsConsumerOfTheDaemonConf(Runtimes.MICROBURST);
    }

    @Test
    void metricsConsumerOfTheDaemonConfIsNotValidatedAgainOnStorm() throws Exception {
        checkMetricsConsumerOfTheDaemonConf(Runtimes.STORM);
    }

    /** As Storm's MetricsIntegrationTest: a consumer registered without a parallelism hint, in the daemon conf. */
    private static void checkMetricsConsumerOfTheDaemonConf(String runtime) throws Exception {
        Map<String, Object> daemonConf = new HashMap<>();
        daemonConf.put(Config.TOPOLOGY_METRICS_CONSUMER_REGISTER,
            List.of(Map.of("class", RecordingConsumer.class.getName())));
        RecordingConsumer.COUNTS.clear();
        try (ILocalCluster cluster = cluster(runtime, daemonConf)) {
            FeederSpout feeder = new FeederSpout(new Fields("word"));
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("words", feeder);
            builder.setBolt("counter", new MetricCountingBolt()).globalGrouping("words");
            cluster.submitTopology("consumed", new Config(), builder.createTopology());
            feeder.feed(new Values("a"), 1);
            io.microburst.it.support.Await.until(runtime + ": the consumer gets the bolt's count", () -> {
                try {
                    cluster.advanceClusterTime(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
                return RecordingConsumer.COUNTS.getOrDefault("counter", 0L) == 1L;
            }, java.time.Duration.ofSeconds(60));
        }
    }

    // ---------------------------------------------------------------- component Kryo configuration

    @Test
    void componentKryoConfigurationIsMergedOnMicroburst() throws Exception {
        checkComponentKryoConfigurationIsMerged(Runtimes.MICROBURST);
    }

    @Test
    void componentKryoConfigurationIsMergedOnStorm() throws Exception {
        checkComponentKryoConfigurationIsMerged(Runtimes.STORM);
    }

    private static void checkComponentKryoConfigurationIsMerged(String runtime) throws Exception {
        Map<String, Object> daemonConf = new HashMap<>();
        daemonConf.put(Config.TOPOLOGY_SKIP_MISSING_KRYO_REGISTRATIONS, true);
        try (ILocalCluster cluster = cluster(runtime, daemonConf)) {
            Map<String, Object> componentConf = new HashMap<>();
            componentConf.put("fake.config", 123);
            componentConf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 30);
            componentConf.put(Config.TOPOLOGY_KRYO_DECORATORS, List.of("one", "two"));
            componentConf.put(Config.TOPOLOGY_KRYO_REGISTER,
                List.of(Map.of("fake.type", "bad.serializer"), Map.of("fake.type2", "a.serializer")));
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("1", new TestPlannerSpout(new Fields("conf")));
            builder.setBolt("2", new TestConfBolt(componentConf)).shuffleGrouping("1")
                .addConfiguration("fake.config2", 987);
            Map<String, Object> topologyConf = new HashMap<>();
            topologyConf.put(Config.TOPOLOGY_KRYO_DECORATORS, List.of("one", "three"));
            topologyConf.put(Config.TOPOLOGY_KRYO_REGISTER,
                List.of(Map.of("fake.type", "good.serializer", "fake.type3", "a.serializer3"), "fake.type4"));
            CompleteTopologyParam param = param(Map.of("1", List.of(new Values("fake.config"),
                new Values(Config.TOPOLOGY_MAX_SPOUT_PENDING), new Values("fake.config2"),
                new Values(Config.TOPOLOGY_KRYO_REGISTER), new Values(Config.TOPOLOGY_KRYO_DECORATORS))));
            param.setStormConf(topologyConf);
            Map<String, Object> seen = new HashMap<>();
            for (List<Object> pair : Testing.readTuples(Testing.completeTopology(cluster, builder.createTopology(),
                param), "2")) {
                seen.put((String) pair.get(0), pair.get(1));
            }
            assertEquals(123, seen.get("fake.config"), runtime);
            assertEquals(987, seen.get("fake.config2"), runtime);
            assertEquals(30, seen.get(Config.TOPOLOGY_MAX_SPOUT_PENDING), runtime);
            Map<String, String> registrations = new HashMap<>();
            registrations.put("fake.type", "good.serializer"); // the topology's wins over the component's
            registrations.put("fake.type2", "a.serializer");
            registrations.put("fake.type3", "a.serializer3");
            registrations.put("fake.type4", null);
            Object register = seen.get(Config.TOPOLOGY_KRYO_REGISTER);
            assertInstanceOf(JSONObject.class, register, runtime); // read back from JSON, as Nimbus stores it
            assertEquals(registrations, register, runtime);
            Object decorators = seen.get(Config.TOPOLOGY_KRYO_DECORATORS);
            assertInstanceOf(JSONArray.class, decorators, runtime);
            assertEquals(3, ((List<?>) decorators).size(), runtime);
            assertEquals(Set.of("one", "two", "three"), new HashSet<>((List<?>) decorators), runtime);
        }
    }

    /** As Storm's LocalCluster.Builder().withTracked(): message timeouts are off unless a topology turns them on. */
    @Test
    void trackedClusterHasMessageTimeoutsOff() throws Exception {
        try (org.apache.storm.utils.Time.SimulatedTime time = new org.apache.storm.utils.Time.SimulatedTime();
             MicroburstCluster cluster = MicroburstCluster.tracked()) {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("1", new TestPlannerSpout(new Fields("conf")));
            builder.setBolt("2", new TestConfBolt()).shuffleGrouping("1");
            CompleteTopologyParam param = param(Map.of("1",
                List.of(new Values(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS))));
            List<List<Object>> seen = Testing.readTuples(Testing.completeTopology(cluster, builder.createTopology(),
                param), "2");
            assertEquals(List.of(Arrays.asList(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, false)), seen);
        }
    }

    // ---------------------------------------------------------------- helpers

    private static ILocalCluster cluster(String runtime, Map<String, Object> daemonConf) throws Exception {
        if (Runtimes.isStorm(runtime)) {
            StormHalts.guard();
            return new LocalCluster.Builder().withSimulatedTime().withDaemonConf(daemonConf).build();
        }
        return new MicroburstCluster.Builder().withSimulatedTime().withDaemonConf(daemonConf).build();
    }

    private static org.apache.storm.generated.StormTopology feederTopology(FeederSpout feeder) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("words", feeder);
        builder.setBolt("echo", new IdentityEmitter(), 2).shuffleGrouping("words");
        return builder.createTopology();
    }

    private static CompleteTopologyParam param(Map<String, List<Values>> data) {
        MockedSources sources = new MockedSources();
        data.forEach((spout, tuples) -> tuples.forEach(values -> sources.addMockData(spout, values)));
        CompleteTopologyParam param = new CompleteTopologyParam();
        param.setMockedSources(sources);
        param.setTimeoutMs(90_000);
        return param;
    }

    /** Emits its input's values, anchored, and acks it. */
    static final class IdentityEmitter extends BaseRichBolt {
        private OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            collector.emit(input, input.getValues());
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }
    }

    /**
     * Emits what its own hook counted so far (emits, acks, fails, executes), unanchored, then acks its input when it
     * has acked as many as it failed and fails it otherwise.
     */
    static final class HookCountingBolt extends BaseRichBolt {
        private final int[] counts = new int[4];
        private OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            context.addTaskHook(new BaseTaskHook() {
                @Override
                public void emit(EmitInfo info) {
                    counts[0]++;
                }

                @Override
                public void boltAck(org.apache.storm.hooks.info.BoltAckInfo info) {
                    counts[1]++;
                }

                @Override
                public void boltFail(org.apache.storm.hooks.info.BoltFailInfo info) {
                    counts[2]++;
                }

                @Override
                public void boltExecute(org.apache.storm.hooks.info.BoltExecuteInfo info) {
                    counts[3]++;
                }
            });
        }

        @Override
        public void execute(Tuple input) {
            collector.emit(new Values(counts[0], counts[1], counts[2], counts[3]));
            if (counts[1] == counts[2]) {
                collector.ack(input);
            } else {
                collector.fail(input);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("emit", "ack", "fail", "executed"));
        }
    }

    /** Counts its tuples in a metric registered with a 5 s bucket, and acks them. */
    static final class MetricCountingBolt extends BaseRichBolt {
        private OutputCollector collector;
        private org.apache.storm.metric.api.CountMetric count;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.count = context.registerMetric("tuples", new org.apache.storm.metric.api.CountMetric(), 5);
        }

        @Override
        public void execute(Tuple input) {
            count.incr();
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** A metrics consumer: sums the "tuples" data points it gets, by component. */
    public static final class RecordingConsumer implements org.apache.storm.metric.api.IMetricsConsumer {
        static final Map<String, Long> COUNTS = new ConcurrentHashMap<>();

        @Override
        public void prepare(Map<String, Object> conf, Object argument, TopologyContext context,
                            org.apache.storm.task.IErrorReporter reporter) {
        }

        @Override
        public void handleDataPoints(TaskInfo taskInfo, java.util.Collection<DataPoint> dataPoints) {
            for (DataPoint point : dataPoints) {
                if ("tuples".equals(point.name) && point.value instanceof Number n) {
                    COUNTS.merge(taskInfo.srcComponentId, n.longValue(), Long::sum);
                }
            }
        }

        @Override
        public void cleanup() {
        }
    }

    /** A submission notifier plugin: records each topology it is told of, by name. */
    public static final class RecordingSubmitterHook implements org.apache.storm.ISubmitterHook {
        static final Map<String, org.apache.storm.generated.StormTopology> SUBMITTED = new ConcurrentHashMap<>();

        @Override
        public void notify(org.apache.storm.generated.TopologyInfo info, Map<String, Object> conf,
                           org.apache.storm.generated.StormTopology topology) {
            SUBMITTED.put(info.get_name(), topology);
        }
    }

    /** A hook named in topology.auto.task.hooks: records every emit of its task in {@link #EMITS}. */
    public static final class RecordingHook extends BaseTaskHook {
        private String component;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context) {
            component = context.getThisComponentId();
        }

        @Override
        public void emit(EmitInfo info) {
            EMITS.computeIfAbsent(component, c -> Collections.synchronizedList(new ArrayList<>()))
                .add(info.stream + ":" + info.outTasks.size());
        }
    }
}
