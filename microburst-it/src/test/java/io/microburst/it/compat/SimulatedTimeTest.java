package io.microburst.it.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import io.microburst.it.support.Await;
import io.microburst.it.support.Runtimes;
import io.microburst.it.support.StormHalts;
import io.microburst.it.support.Topologies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.Config;
import org.apache.storm.Constants;
import org.apache.storm.ILocalCluster;
import org.apache.storm.LocalCluster;
import org.apache.storm.Testing;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.SubmitOptions;
import org.apache.storm.generated.TopologyInitialStatus;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.testing.AckFailMapTracker;
import org.apache.storm.testing.AckTracker;
import org.apache.storm.testing.CompleteTopologyParam;
import org.apache.storm.testing.FeederSpout;
import org.apache.storm.testing.MockedSources;
import org.apache.storm.testing.TestWordCounter;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.testing.TrackedTopology;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.Time;
import org.junit.jupiter.api.Test;

/**
 * Storm's simulated time as Storm users unit-test topologies with it ({@code LocalCluster.Builder().withSimulatedTime()},
 * {@code advanceClusterTime}, tracked topologies): message timeouts, resetTimeout and tick tuples follow the simulated
 * clock, not the wall clock. The tests named "...OnMicroburst" and "...OnStorm" run the same check on Storm's LocalCluster and on
 * {@link MicroburstCluster.Builder}; Storm's executors start at a simulated time of their own and its
 * {@code advanceClusterTime} does not wait for them, so there they check what Storm guarantees (a window). The others
 * check what Microburst adds: its timers start at submission and {@code advanceClusterTime} returns once the cluster
 * is idle, so each step's effects are there, to the second, when it returns.
 */
class SimulatedTimeTest {
    private static final int TIMEOUT_SECS = 10;

    // ---------------------------------------------------------------- on both runtimes

    @Test
    void messageTimeoutAndResetTimeoutFollowSimulatedTimeOnMicroburst() throws Exception {
        checkMessageTimeoutAndResetTimeoutFollowSimulatedTime(Runtimes.MICROBURST);
    }

    @Test
    void messageTimeoutAndResetTimeoutFollowSimulatedTimeOnStorm() throws Exception {
        checkMessageTimeoutAndResetTimeoutFollowSimulatedTime(Runtimes.STORM);
    }

    private static void checkMessageTimeoutAndResetTimeoutFollowSimulatedTime(String runtime) throws Exception {
        long start = System.nanoTime();
        try (ILocalCluster cluster = simulated(runtime, false)) {
            FeederSpout feeder = new FeederSpout(new Fields("cmd"));
            AckFailMapTracker tracker = new AckFailMapTracker();
            feeder.setAckFailDelegate(tracker);
            cluster.submitTopology(Topologies.uniqueName("timeouts"), timeoutConf(), holding(feeder));
            cluster.advanceClusterTime(11);
            feeder.feed(new Values("hold"), 1);
            feeder.feed(new Values("lose"), 2);
            cluster.advanceClusterTime(9);
            feeder.feed(new Values("poke"), 3);
            awaitAcked(runtime, tracker, 3);
            assertFalse(tracker.isFailed(2), runtime + ": a tuple failed before its timeout");
            cluster.advanceClusterTime(9);
            feeder.feed(new Values("poke"), 4);
            awaitAcked(runtime, tracker, 4);
            cluster.advanceClusterTime(4);
            // emitted at 11 s, never acked: expired at the second rotation after its emit, by 31 s
            Await.until(runtime + ": the lost tuple failed", () -> tracker.isFailed(2));
            feeder.feed(new Values("release"), 5);
            awaitAcked(runtime, tracker, 5);
            awaitAcked(runtime, tracker, 1);
            assertFalse(tracker.isFailed(1), runtime + ": resetTimeout did not keep the held tuple alive");
        }
        System.out.printf("SimulatedTimeTest timeouts on %s: %d ms%n", runtime, (System.nanoTime() - start) / 1_000_000);
    }

    // (Not on Storm's LocalCluster: its worker starts at a simulated time of its own, and its bolt sees no tick after
    // the first 11 simulated seconds without more advancing; the exact schedule is checked below, on Microburst.)
    @Test
    void tickTuplesComeAtSimulatedIntervalsOnMicroburst() throws Exception {
        checkTickTuplesComeAtSimulatedIntervals(Runtimes.MICROBURST);
    }

    private static void checkTickTuplesComeAtSimulatedIntervals(String runtime) throws Exception {
        String scope = "ticks-" + runtime + "-" + System.nanoTime();
        try (ILocalCluster cluster = simulated(runtime, false)) {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("feeder", new FeederSpout(new Fields("cmd")));
            builder.setBolt("ticks", new TickCountingBolt(scope)).shuffleGrouping("feeder")
                .addConfiguration(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 5);
            cluster.submitTopology(Topologies.uniqueName("ticks"), Topologies.baseConf(), builder.createTopology());
            cluster.advanceClusterTime(11);
            Await.until(runtime + ": the first ticks", () -> TickCountingBolt.ticks(scope) >= 1);
            int before = TickCountingBolt.ticks(scope);
            cluster.advanceClusterTime(20);
            // the bolt's ticks are 5 simulated seconds apart, wherever they started
            Await.until(runtime + ": 4 ticks in 20 simulated seconds",
                () -> TickCountingBolt.ticks(scope) >= before + 4);
            cluster.advanceClusterTime(2);
            // (Storm's advanceClusterTime does not wait for the bolt: a tick may still have been on its way)
            assertTrue(TickCountingBolt.ticks(scope) <= before + 6, runtime + ": " + TickCountingBolt.ticks(scope)
                + " ticks after " + before + " and 22 simulated seconds");
        } finally {
            TickCountingBolt.forget(scope);
        }
    }

    @Test
    void trackedTopologyWithHeldTuplesOnMicroburst() throws Exception {
        checkTrackedTopologyWithHeldTuples(Runtimes.MICROBURST);
    }

    @Test
    void trackedTopologyWithHeldTuplesOnStorm() throws Exception {
        checkTrackedTopologyWithHeldTuples(Runtimes.STORM);
    }

    private static void checkTrackedTopologyWithHeldTuples(String runtime) throws Exception {
        try (ILocalCluster cluster = simulated(runtime, true)) {
            FeederSpout feeder = new FeederSpout(new Fields("cmd"));
            AckTracker acks = new AckTracker();
            feeder.setAckFailDelegate(acks);
            TrackedTopology tracked = new TrackedTopology(holding(feeder), cluster);
            cluster.submitTopology(Topologies.uniqueName("tracked"), timeoutConf(), tracked.getTopology());
            cluster.advanceClusterTime(11);
            feeder.feed(new Values("hold"));
            Testing.trackedWait(tracked, 1);
            assertEquals(0, acks.getNumAcks(), runtime + ": a held tuple's tree is not complete");
            feeder.feed(new Values("release"));
            Testing.trackedWait(tracked, 1);
            assertEquals(2, acks.getNumAcks(), runtime + ": both trees acked once trackedWait returns");
        }
    }

    @Test
    void invalidTopologiesAreRefusedThroughCompleteTopologyOnMicroburst() throws Exception {
        checkInvalidTopologiesAreRefusedThroughCompleteTopology(Runtimes.MICROBURST);
    }

    @Test
    void invalidTopologiesAreRefusedThroughCompleteTopologyOnStorm() throws Exception {
        checkInvalidTopologiesAreRefusedThroughCompleteTopology(Runtimes.STORM);
    }

    private static void checkInvalidTopologiesAreRefusedThroughCompleteTopology(String runtime) throws Exception {
        try (ILocalCluster cluster = simulated(runtime, false)) {
            TopologyBuilder unknownComponent = new TopologyBuilder();
            unknownComponent.setSpout("words", new TestWordSpout(true));
            unknownComponent.setBolt("count", new TestWordCounter()).fieldsGrouping("nowhere", new Fields("word"));
            TopologyBuilder unknownField = new TopologyBuilder();
            unknownField.setSpout("words", new TestWordSpout(true));
            unknownField.setBolt("count", new TestWordCounter()).fieldsGrouping("words", new Fields("nothing"));
            TopologyBuilder unknownStream = new TopologyBuilder();
            unknownStream.setSpout("words", new TestWordSpout(true));
            unknownStream.setBolt("count", new TestWordCounter())
                .fieldsGrouping("words", "no-such-stream", new Fields("word"));
            for (TopologyBuilder invalid : List.of(unknownComponent, unknownField, unknownStream)) {
                assertThrows(InvalidTopologyException.class,
                    () -> Testing.completeTopology(cluster, invalid.createTopology(), wordsParam()), runtime);
            }
            TopologyBuilder valid = new TopologyBuilder();
            valid.setSpout("words", new TestWordSpout(true));
            valid.setBolt("count", new TestWordCounter()).fieldsGrouping("words", new Fields("word"));
            assertEquals(List.of(List.of("nathan", 1)),
                Testing.readTuples(Testing.completeTopology(cluster, valid.createTopology(), wordsParam()), "count"),
                runtime);
        }
    }

    // ---------------------------------------------------------------- Microburst's exact steps

    @Test
    void aTupleFailsAtTheSecondRotationAfterItsEmitOrLastReset() throws Exception {
        try (MicroburstCluster cluster = new MicroburstCluster.Builder().withSimulatedTime().build()) {
            FeederSpout feeder = new FeederSpout(new Fields("cmd"));
            AckFailMapTracker tracker = new AckFailMapTracker();
            feeder.setAckFailDelegate(tracker);
            // submitted at 0 s: the spout's pending trees rotate at 10 s, 20 s, 30 s...
            cluster.submitTopology(Topologies.uniqueName("exact"), timeoutConf(), holding(feeder));
            cluster.advanceClusterTime(11);
            feeder.feed(new Values("lose"), 1);
            feeder.feed(new Values("hold"), 2);
            for (int now = 12; now < 30; now++) {
                if (now == 25) {
                    feeder.feed(new Values("poke"), 3); // resets the held tuple's timeout at 25 s
                }
                cluster.advanceClusterTime(1);
                assertFalse(tracker.isFailed(1), "failed early, at " + now + " s");
            }
            assertTrue(tracker.isAcked(3));
            cluster.advanceClusterTime(1);
            assertTrue(tracker.isFailed(1), "emitted at 11 s, expired at the rotation of 30 s");
            assertFalse(tracker.isFailed(2), "reset at 25 s: not expired at 30 s");
            cluster.advanceClusterTime(9);
            assertFalse(tracker.isFailed(2), "reset at 25 s: not expired at 39 s");
            cluster.advanceClusterTime(1);
            assertTrue(tracker.isFailed(2), "reset at 25 s: expired at the rotation of 40 s");
        }
    }

    @Test
    void ticksComeExactlyEveryPeriodOfSimulatedTime() throws Exception {
        String scope = "exact-ticks-" + System.nanoTime();
        try (MicroburstCluster cluster = new MicroburstCluster.Builder().withSimulatedTime().build()) {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("feeder", new FeederSpout(new Fields("cmd")));
            builder.setBolt("ticks", new TickCountingBolt(scope), 2).shuffleGrouping("feeder")
                .addConfiguration(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 5);
            cluster.submitTopology(Topologies.uniqueName("ticks"), Topologies.baseConf(), builder.createTopology());
            cluster.advanceClusterTime(4);
            assertEquals(0, TickCountingBolt.ticks(scope), "no tick before 5 s");
            cluster.advanceClusterTime(1);
            assertEquals(2, TickCountingBolt.ticks(scope), "one tick per task at 5 s");
            cluster.advanceClusterTime(14);
            assertEquals(6, TickCountingBolt.ticks(scope), "ticks at 5, 10 and 15 s");
            cluster.advanceClusterTime(30, 10);
            // as Storm's timer: a recurring entry is due one period after it fired, so a 10 s step fires a 5 s tick once
            assertEquals(12, TickCountingBolt.ticks(scope), "one tick per task at 29, 39 and 49 s");
        } finally {
            TickCountingBolt.forget(scope);
        }
    }

    @Test
    void advanceClusterTimeReturnsOnceWhatWasFedIsProcessed() throws Exception {
        try (MicroburstCluster cluster = new MicroburstCluster.Builder().withSimulatedTime().build()) {
            FeederSpout feeder = new FeederSpout(new Fields("cmd"));
            AckFailMapTracker tracker = new AckFailMapTracker();
            feeder.setAckFailDelegate(tracker);
            cluster.submitTopology(Topologies.uniqueName("idle"), timeoutConf(), holding(feeder));
            cluster.advanceClusterTime(1);
            for (int i = 1; i <= 20; i++) {
                feeder.feed(new Values("ack"), i);
            }
            cluster.advanceClusterTime(1);
            for (int i = 1; i <= 20; i++) {
                assertTrue(tracker.isAcked(i), "tuple " + i + " acked when advanceClusterTime returned");
            }
            assertTrue(cluster.waitForIdle());
        }
    }

    @Test
    void builderTurnsSimulatedTimeOnForTheClustersLifetime() throws Exception {
        assertFalse(Time.isSimulating());
        try (MicroburstCluster cluster = new MicroburstCluster.Builder().withSupervisors(4).withPortsPerSupervisor(3)
            .withNimbusDaemon().withSimulatedTime().build()) {
            assertTrue(Time.isSimulating());
            assertEquals(0, Time.currentTimeMillis());
            cluster.advanceClusterTime(3);
            assertEquals(3_000, Time.currentTimeMillis());
            assertEquals(null, cluster.getTrackedId());
        }
        assertFalse(Time.isSimulating());
        try (MicroburstCluster cluster = new MicroburstCluster.Builder().build()) {
            assertFalse(Time.isSimulating());
            assertThrows(IllegalStateException.class, () -> cluster.advanceClusterTime(1));
        }
        assertThrows(IllegalArgumentException.class, () -> new MicroburstCluster.Builder().withSupervisors(-1));
        try (MicroburstCluster cluster = new MicroburstCluster.Builder().withTracked("my-tracked-id").build()) {
            assertEquals("my-tracked-id", cluster.getTrackedId());
        }
    }

    @Test
    void daemonConfCanTurnMessageTimeoutsOff() throws Exception {
        try (MicroburstCluster cluster = new MicroburstCluster.Builder()
            .withDaemonConf(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, false).withSimulatedTime().build()) {
            FeederSpout feeder = new FeederSpout(new Fields("cmd"));
            AckFailMapTracker tracker = new AckFailMapTracker();
            feeder.setAckFailDelegate(tracker);
            Map<String, Object> conf = Topologies.baseConf();
            conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, TIMEOUT_SECS);
            conf.remove(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS);
            cluster.submitTopology(Topologies.uniqueName("no-timeouts"), conf, holding(feeder));
            feeder.feed(new Values("lose"), 1);
            feeder.feed(new Values("ack"), 2);
            cluster.advanceClusterTime(60, 5);
            assertTrue(tracker.isAcked(2));
            assertFalse(tracker.isFailed(1), "timeouts are off: the tuple is never failed");
        }
    }

    @Test
    void inactiveTopologyIsActivatedThroughGetNimbus() throws Exception {
        try (MicroburstCluster cluster = new MicroburstCluster.Builder().withSimulatedTime().build()) {
            FeederSpout feeder = new FeederSpout(new Fields("cmd"));
            AckFailMapTracker tracker = new AckFailMapTracker();
            feeder.setAckFailDelegate(tracker);
            String name = Topologies.uniqueName("inactive");
            cluster.submitTopologyWithOpts(name, timeoutConf(), holding(feeder),
                new SubmitOptions(TopologyInitialStatus.INACTIVE));
            feeder.feedNoWait(new Values("ack"), 1);
            cluster.advanceClusterTime(5);
            assertFalse(tracker.isAcked(1), "an inactive spout is not polled");
            cluster.getNimbus().activate(name);
            cluster.advanceClusterTime(1);
            assertTrue(tracker.isAcked(1));
            assertEquals(name, cluster.getNimbus().getTopologySummaryByName(name).get_name());
            assertThrows(UnsupportedOperationException.class, () -> cluster.getNimbus().getLeader());
        }
    }

    @Test
    void completeTopologyRunsUnderTheBuilder() throws Exception {
        try (MicroburstCluster cluster = new MicroburstCluster.Builder().withSimulatedTime().build()) {
            StormTestingApiTest.completeTopologyWithMockedSources(cluster);
        }
    }

    // ---------------------------------------------------------------- helpers

    private static ILocalCluster simulated(String runtime, boolean tracked) throws Exception {
        if (Runtimes.isStorm(runtime)) {
            StormHalts.guard();
            LocalCluster.Builder builder = new LocalCluster.Builder().withSimulatedTime()
                .withDaemonConf(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, true);
            return tracked ? builder.withTracked().build() : builder.build();
        }
        MicroburstCluster.Builder builder = new MicroburstCluster.Builder().withSimulatedTime()
            .withDaemonConf(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, true);
        return tracked ? builder.withTracked().build() : builder.build();
    }

    private static Map<String, Object> timeoutConf() {
        Map<String, Object> conf = Topologies.baseConf();
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, TIMEOUT_SECS);
        conf.put(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, true); // the builders turn them off, as Storm's does
        return conf;
    }

    /** A feeder spout and a {@link HoldingBolt}. */
    private static StormTopology holding(FeederSpout feeder) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("feeder", feeder);
        builder.setBolt("holder", new HoldingBolt()).globalGrouping("feeder");
        return builder.createTopology();
    }

    private static CompleteTopologyParam wordsParam() {
        MockedSources sources = new MockedSources();
        sources.addMockData("words", new Values("nathan"));
        CompleteTopologyParam param = new CompleteTopologyParam();
        param.setMockedSources(sources);
        param.setTimeoutMs(90_000);
        return param;
    }

    private static void awaitAcked(String runtime, AckFailMapTracker tracker, Object id) {
        Await.until(runtime + ": tuple " + id + " acked", () -> tracker.isAcked(id));
    }

    /**
     * Acts on its input's first value: "hold" is kept, unacked; "poke" resets the timeouts of the kept tuples;
     * "release" acks them; "lose" is never acked; anything else is acked. Every command but "hold" and "lose" is acked.
     */
    static final class HoldingBolt extends BaseRichBolt {
        private static final long serialVersionUID = 1L;
        private transient OutputCollector collector;
        private transient List<Tuple> held;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.held = new ArrayList<>();
        }

        @Override
        public void execute(Tuple input) {
            switch (input.getString(0)) {
                case "hold" -> held.add(input);
                case "lose" -> {
                    // never acked: it times out
                }
                case "poke" -> {
                    held.forEach(collector::resetTimeout);
                    collector.ack(input);
                }
                case "release" -> {
                    held.forEach(collector::ack);
                    held.clear();
                    collector.ack(input);
                }
                default -> collector.ack(input);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Counts the tick tuples its tasks get, per scope; acks everything else. */
    static final class TickCountingBolt extends BaseRichBolt {
        private static final long serialVersionUID = 1L;
        private static final Map<String, AtomicInteger> TICKS = new ConcurrentHashMap<>();
        private final String scope;
        private transient OutputCollector collector;

        TickCountingBolt(String scope) {
            this.scope = scope;
        }

        static int ticks(String scope) {
            AtomicInteger n = TICKS.get(scope);
            return n == null ? 0 : n.get();
        }

        static void forget(String scope) {
            TICKS.remove(scope);
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            if (Constants.SYSTEM_COMPONENT_ID.equals(input.getSourceComponent())
                && Constants.SYSTEM_TICK_STREAM_ID.equals(input.getSourceStreamId())) {
                TICKS.computeIfAbsent(scope, k -> new AtomicInteger()).incrementAndGet();
            } else {
                collector.ack(input);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
