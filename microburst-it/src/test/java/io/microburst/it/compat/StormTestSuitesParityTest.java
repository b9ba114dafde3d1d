package io.microburst.it.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.microburst.MicroburstCluster;
import io.microburst.it.support.Await;
import io.microburst.it.support.Runtimes;
import io.microburst.it.support.StormHalts;
import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
import org.apache.storm.LocalDRPC;
import org.apache.storm.Testing;
import org.apache.storm.drpc.LinearDRPCTopologyBuilder;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.hooks.BaseTaskHook;
import org.apache.storm.hooks.info.EmitInfo;
import org.apache.storm.shade.net.minidev.json.JSONArray;
import org.apache.storm.shade.net.minidev.json.JSONObject;
import org.apache.storm.shade.net.minidev.json.JSONValue;
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
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

/**
 * What Storm 2.8.3's own storm-core tests (TopologyIntegrationTest, TestingTest) need from a cluster, checked on
 * Storm's LocalCluster and on {@link MicroburstCluster.Builder} alike: a {@code TrackedTopology} submitted as it is,
 * subscriptions to a component's {@code __system} stream, the emit hooks Storm calls for acker messages, and the
 * component-level Kryo configuration Nimbus merges into the topology's, LocalDRPC on the cluster's metric registry,
 * rebalance overrides, bolts that ack copies of their input. With Storm 2.8.3's source release unpacked (see
 * {@link #SOURCE_RELEASE_HOW_TO}), it also runs storm-server's TestRebalance on Microburst, with only the line that
 * makes the cluster changed (it names storm-server's scheduler classes, so it cannot run against
 * microburst-localcluster). storm-core's Clojure suites run unchanged in {@link StormClojureSuitesTest}.
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

    @Test
    void hooksSeeNoAckOrFailWithoutAckersOnMicroburst() throws Exception {
        checkHooksWithoutAckers(Runtimes.MICROBURST);
    }

    @Test
    void hooksSeeNoAckOrFailWithoutAckersOnStorm() throws Exception {
        checkHooksWithoutAckers(Runtimes.STORM);
    }

    /** With no ackers Storm's bolt collector returns from ack and fail at once: no acker emit, no boltAck or boltFail. */
    private static void checkHooksWithoutAckers(String runtime) throws Exception {
        try (ILocalCluster cluster = cluster(runtime, Map.of())) {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("1", new TestPlannerSpout(new Fields("conf")));
            builder.setBolt("2", new HookCountingBolt()).shuffleGrouping("1");
            CompleteTopologyParam param = param(Map.of("1",
                List.of(new Values(1), new Values(1), new Values(1), new Values(1))));
            Map<String, Object> conf = new HashMap<>();
            conf.put(Config.TOPOLOGY_ACKER_EXECUTORS, 0);
            conf.put(Config.TOPOLOGY_AUTO_TASK_HOOKS, List.of(RecordingHook.class.getName()));
            param.setStormConf(conf);
            EMITS.clear();
            Map<String, List<org.apache.storm.testing.FixedTuple>> results =
                Testing.completeTopology(cluster, builder.createTopology(), param);
            // emits seen, acks, fails, executes, before each emit: the bolt acks every tuple, its hook sees none
            assertEquals(List.of(List.of(0, 0, 0, 0), List.of(1, 0, 0, 1), List.of(2, 0, 0, 2), List.of(3, 0, 0, 3)),
                Testing.readTuples(results, "2"), runtime);
            assertEquals(Collections.nCopies(4, "default:1"), EMITS.get("2"), runtime);
            assertEquals(Collections.nCopies(4, "default:2"), EMITS.get("1"), runtime);
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
        daemonConf.put(Config.TOPOLOGY_KRYO_DECORATORS, "this-is-overridden"); // by the topology's, as in Storm's test
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
            // a set's order, as Nimbus keeps them: the components' first, then the topology's (Storm's test expects it)
            assertEquals(List.of("one", "two", "three"), decorators, runtime);
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

    // ---------------------------------------------------------------- LocalDRPC and the topology handle

    @Test
    void localDrpcTakesTheClusterMetricRegistryOnMicroburst() throws Exception {
        try (MicroburstCluster cluster = new MicroburstCluster();
             LocalDRPC drpc = new LocalDRPC(cluster.getMetricRegistry())) {
            assertSame(cluster.getMetricRegistry(), cluster.getMetricRegistry(), "one registry per cluster");
            MicroburstCluster.LocalTopology handle = checkLocalDrpcAndHandle(cluster, drpc);
            handle.close();
            assertThrows(org.apache.storm.generated.NotAliveException.class,
                () -> cluster.getTopologySummaryByName("exclaim"), "closing the handle kills the topology");
        }
    }

    @Test
    void localDrpcTakesTheClusterMetricRegistryOnStorm() throws Exception {
        StormHalts.guard();
        try (LocalCluster cluster = new LocalCluster();
             LocalDRPC drpc = new LocalDRPC(cluster.getMetricRegistry())) {
            checkLocalDrpcAndHandle(cluster, drpc).close();
        }
    }

    /** As Storm's DRPC and Trident integration suites: a linear DRPC topology answers; the handle is the topology. */
    @SuppressWarnings("unchecked")
    private static <T extends ILocalCluster.ILocalTopology> T checkLocalDrpcAndHandle(ILocalCluster cluster,
                                                                                     LocalDRPC drpc) throws Exception {
        LinearDRPCTopologyBuilder builder = new LinearDRPCTopologyBuilder("exclaim");
        builder.addBolt(new ExclaimBolt(), 2);
        org.apache.storm.generated.StormTopology topology = builder.createLocalTopology(drpc);
        ILocalCluster.ILocalTopology handle = cluster.submitTopology("exclaim", new Config(), topology);
        assertEquals("a!", drpc.execute("exclaim", "a"));
        assertEquals("bc!", drpc.execute("exclaim", "bc"));
        assertInstanceOf(org.apache.storm.generated.StormTopology.class, handle);
        assertEquals(topology.get_bolts().keySet(),
            ((org.apache.storm.generated.StormTopology) handle).get_bolts().keySet());
        return (T) handle;
    }

    // ---------------------------------------------------------------- bolts that ack a copy of their input

    @Test
    void ackOfACopiedTupleCompletesTheTreeOnMicroburst() throws Exception {
        checkAckOfACopiedTuple(Runtimes.MICROBURST);
    }

    @Test
    void ackOfACopiedTupleCompletesTheTreeOnStorm() throws Exception {
        checkAckOfACopiedTuple(Runtimes.STORM);
    }

    /** As storm-clojure's bolts, which anchor to and ack a ClojureTuple made from their input (grouping_test.clj). */
    private static void checkAckOfACopiedTuple(String runtime) throws Exception {
        if (Runtimes.isStorm(runtime)) {
            StormHalts.guard();
        }
        try (ILocalCluster cluster = Runtimes.isStorm(runtime)
            ? new LocalCluster.Builder().withSimulatedTime().withTracked().build()
            : new MicroburstCluster.Builder().withSimulatedTime().withTracked().build()) {
            FeederSpout feeder = new FeederSpout(new Fields("word"));
            AckTracker acks = new AckTracker();
            feeder.setAckFailDelegate(acks);
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("words", feeder);
            builder.setBolt("copy", new CopyAckingBolt(), 2).shuffleGrouping("words");
            builder.setBolt("echo", new IdentityEmitter()).shuffleGrouping("copy");
            TrackedTopology tracked = Testing.mkTrackedTopology(cluster, builder.createTopology());
            cluster.submitTopology("copies", new Config(), tracked.getTopology());
            feeder.feed(new Values("a"), 1);
            feeder.feed(new Values("b"), 2);
            Testing.trackedWait(tracked, 2);
            assertEquals(2, acks.getNumAcks(), runtime + ": both trees complete through the copies' acks");
        }
    }

    /** Emits anchored to a copy of its input ({@code new TupleImpl(input)}) and acks the copy. */
    static final class CopyAckingBolt extends BaseRichBolt {
        private OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            Tuple copy = new org.apache.storm.tuple.TupleImpl(input);
            collector.emit(copy, copy.getValues());
            collector.ack(copy);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }
    }

    // ---------------------------------------------------------------- rebalance with overrides (TestRebalance)

    /**
     * As Storm's TestRebalance, whose run on Storm's LocalCluster (with the resource-aware scheduler) is the reference:
     * on a loaded machine that cluster can take over a minute to stop its worker slot, so it is not repeated here.
     */
    @Test
    void rebalanceOverridesConfAndResourcesOnMicroburst() throws Exception {
        try (ILocalCluster cluster = new MicroburstCluster.Builder().withDaemonConf(resourceAwareConf()).build()) {
            checkRebalanceOverrides(cluster);
            RebalanceOptions bad = new RebalanceOptions();
            bad.set_topology_conf_overrides("{not json");
            InvalidTopologyException refused = assertThrows(InvalidTopologyException.class,
                () -> cluster.rebalance("resources", bad));
            assertTrue(refused.getMessage().contains("'resources'")
                && refused.getMessage().contains("topology_conf_overrides"), refused.getMessage());
        }
    }

    /** The cluster settings of Storm's TestRebalance: the resource-aware scheduler and component resources. */
    private static Map<String, Object> resourceAwareConf() {
        Map<String, Object> conf = new HashMap<>();
        conf.put("storm.scheduler", "org.apache.storm.scheduler.resource.ResourceAwareScheduler");
        conf.put("resource.aware.scheduler.priority.strategy",
            "org.apache.storm.scheduler.resource.strategies.priority.DefaultSchedulingPriorityStrategy");
        conf.put(Config.TOPOLOGY_SCHEDULER_STRATEGY,
            "org.apache.storm.scheduler.resource.strategies.scheduling.DefaultResourceAwareStrategy");
        conf.put(Config.TOPOLOGY_COMPONENT_CPU_PCORE_PERCENT, 10.0);
        conf.put(Config.TOPOLOGY_COMPONENT_RESOURCES_OFFHEAP_MEMORY_MB, 10.0);
        conf.put(Config.TOPOLOGY_COMPONENT_RESOURCES_ONHEAP_MEMORY_MB, 100.0);
        conf.put(Config.TOPOLOGY_WORKER_MAX_HEAP_SIZE_MB, Double.MAX_VALUE);
        return conf;
    }

    @SuppressWarnings("unchecked")
    private static void checkRebalanceOverrides(ILocalCluster cluster) throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout-1", new TestWordSpout(true), 2);
        builder.setBolt("bolt-1", new IdentityEmitter(), 2).shuffleGrouping("spout-1");
        cluster.submitTopology("resources", new HashMap<>(), builder.createTopology());
        String id = cluster.getTopologySummaryByName("resources").get_id();
        Await.until("the topology is scheduled", () -> {
            try {
                TopologySummary summary = cluster.getTopologySummaryByName("resources");
                return "ACTIVE".equals(summary.get_status()) && summary.get_sched_status() != null
                    && !summary.get_sched_status().isEmpty();
            } catch (Exception e) {
                return false;
            }
        }, Duration.ofSeconds(60));

        RebalanceOptions options = new RebalanceOptions();
        options.set_wait_secs(0);
        options.set_topology_resources_overrides(Map.of("spout-1", Map.of(
            Config.TOPOLOGY_COMPONENT_RESOURCES_ONHEAP_MEMORY_MB, 120.0,
            Config.TOPOLOGY_COMPONENT_CPU_PCORE_PERCENT, 25.0, "gpu.count", 5.0)));
        options.set_topology_conf_overrides("{\"" + Config.TOPOLOGY_WORKER_MAX_HEAP_SIZE_MB + "\": 768.0, \""
            + Config.TOPOLOGY_SUBMITTER_USER + "\": \"someone-else\"}");
        String user = (String) ((Map<String, Object>) JSONValue.parse(cluster.getTopologyConf(id)))
            .get(Config.TOPOLOGY_SUBMITTER_USER);
        cluster.rebalance("resources", options);

        Await.until("the configuration override is stored", () -> {
            try {
                Map<String, Object> conf = (Map<String, Object>) JSONValue.parse(cluster.getTopologyConf(id));
                return Double.valueOf(768.0).equals(conf.get(Config.TOPOLOGY_WORKER_MAX_HEAP_SIZE_MB));
            } catch (Exception e) {
                return false;
            }
        }, Duration.ofSeconds(60));
        Map<String, Object> conf = (Map<String, Object>) JSONValue.parse(cluster.getTopologyConf(id));
        assertEquals(user, conf.get(Config.TOPOLOGY_SUBMITTER_USER), "Nimbus drops the submitter from overrides");
        String spoutConf = cluster.getTopology(id).get_spouts().get("spout-1").get_common().get_json_conf();
        Map<String, Object> resources = (Map<String, Object>) ((Map<String, Object>) JSONValue.parse(spoutConf))
            .get(Config.TOPOLOGY_COMPONENT_RESOURCES_MAP);
        assertEquals(25.0, ((Number) resources.get(org.apache.storm.Constants.COMMON_CPU_RESOURCE_NAME)).doubleValue());
        assertEquals(120.0,
            ((Number) resources.get(org.apache.storm.Constants.COMMON_ONHEAP_MEMORY_RESOURCE_NAME)).doubleValue());
        assertEquals(5.0, ((Number) resources.get("gpu.count")).doubleValue());
        String boltConf = cluster.getTopology(id).get_bolts().get("bolt-1").get_common().get_json_conf();
        assertTrue(boltConf == null || !boltConf.contains("gpu.count"), "only the components named change: " + boltConf);
    }

    // ---------------------------------------------------------------- Storm's own suites, from its source release

    /**
     * storm-server's TestRebalance, compiled from Storm 2.8.3's source release with only the line that makes the
     * cluster changed, and run here (JUnit 5, as Storm runs it).
     */
    @Test
    void stormRebalanceSuiteRunsOnMicroburst() throws Exception {
        Path release = stormSourceRelease();
        assumeTrue(release != null, SOURCE_RELEASE_HOW_TO);
        Path test = release.resolve("storm-server/src/test/java/org/apache/storm");
        Path work = Files.createDirectories(Path.of("target", "storm-suites", "rebalance").toAbsolutePath());
        Path sources = work.resolve("src");
        copyWithClusterLine(test.resolve("TestRebalance.java"), sources.resolve("org/apache/storm/TestRebalance.java"),
            "new LocalCluster.Builder()", "new io.microburst.MicroburstCluster.Builder()");
        copyWithClusterLine(test.resolve("scheduler/resource/TestUtilsForResourceAwareScheduler.java"),
            sources.resolve("org/apache/storm/scheduler/resource/TestUtilsForResourceAwareScheduler.java"), null, null);
        Map<String, String> notBuilt = new LinkedHashMap<>();
        Path classes = StormExamplesParityTest.compile(sources, work.resolve("classes"), notBuilt);
        assertEquals(Map.of(), notBuilt, "Storm's TestRebalance compiles against MicroburstCluster");
        List<String> failures = new ArrayList<>();
        int passed = 0;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
            getClass().getClassLoader())) {
            Class<?> suite = loader.loadClass("org.apache.storm.TestRebalance");
            for (Method m : suite.getMethods()) {
                if (m.isAnnotationPresent(Test.class)) {
                    try {
                        m.invoke(suite.getConstructor().newInstance());
                        passed++;
                    } catch (InvocationTargetException e) {
                        failures.add(m.getName() + ": " + e.getCause());
                    }
                }
            }
        }
        assertEquals(List.of(), failures);
        assertEquals(1, passed, "TestRebalance's one test ran");
    }

    static final String SOURCE_RELEASE_HOW_TO = "Storm's own test suites come with its source release. "
        + StormSourceRelease.HOW_TO;

    /** The unpacked source release (see {@link StormSourceRelease}), or null. */
    static Path stormSourceRelease() {
        return StormSourceRelease.find("storm-core/test/clj");
    }

    /** Copies a source of Storm's, with {@code from} (the line that makes the cluster) replaced by {@code to}. */
    private static void copyWithClusterLine(Path source, Path target, String from, String to) throws Exception {
        String text = Files.readString(source);
        if (from != null) {
            assertTrue(text.contains(from), source + " makes its cluster with " + from);
            text = text.replace(from, to);
        }
        Files.createDirectories(target.getParent());
        Files.writeString(target, text);
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

    /** A linear DRPC bolt: appends "!" to the request's argument. */
    static final class ExclaimBolt extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            collector.emit(new Values(input.getValue(0), input.getString(1) + "!"));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id", "result"));
        }
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
