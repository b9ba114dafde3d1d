package io.microburst.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Storm's acking scenarios, stepped from a scripted spout: after each step the spout's acked and failed ids are
 * compared with what Storm's contract says. Every scenario runs on Apache Storm's LocalCluster (which validates the
 * expectation) and on Microburst; both must give the same trace.
 */
// try-with-resources is used only to stop the topology, whatever happens.
@SuppressWarnings("try")
class AckingParityTest {
    private static final Duration STEP_LIMIT = Duration.ofSeconds(30);
    /** After a step looks settled, how long to keep watching for a late, wrong ack or fail. */
    private static final long GRACE_MILLIS = 500;
    private static final int SCENARIO_TIMEOUT_SECS = 30;
    private static final Map<ClusterKind, ILocalCluster> CLUSTERS = new EnumMap<>(ClusterKind.class);

    @AfterAll
    static void stopClusters() throws Exception {
        for (ILocalCluster cluster : CLUSTERS.values()) {
            cluster.close();
        }
        CLUSTERS.clear();
    }

    private static ILocalCluster cluster(ClusterKind kind) throws Exception {
        ILocalCluster cluster = CLUSTERS.get(kind);
        if (cluster == null) {
            cluster = kind.start();
            CLUSTERS.put(kind, cluster);
        }
        return cluster;
    }

    @ParameterizedTest
    @EnumSource(ClusterKind.class)
    void treeWithBranchesAndAJoinIsAckedOnlyWhenTheJoinHasAllItsInputs(ClusterKind kind) throws Exception {
        Scenario s = new Scenario(kind);
        s.builder.setSpout("spout", new ScriptedSpout(s.run.id(), true), 1);
        s.builder.setBolt("branch", new BranchBolt(s.run.id(), 2), 1).shuffleGrouping("spout");
        s.builder.setBolt("join", new CountJoinBolt(s.run.id(), 4), 1).shuffleGrouping("branch");
        s.builder.setBolt("sink", new AckBolt(s.run.id()), 1).shuffleGrouping("join");
        s.play(conf(SCENARIO_TIMEOUT_SECS), trace -> {
            trace.step("feed 1", () -> s.run.feed(1), () -> s.received("join") >= 2, ids(), ids());
            trace.step("feed 2", () -> s.run.feed(2), () -> s.received("join") >= 4, ids(1, 2), ids());
            trace.step("feed 3", () -> s.run.feed(3), () -> s.received("join") >= 6, ids(1, 2), ids());
            trace.step("feed 4", () -> s.run.feed(4), () -> s.received("join") >= 8, ids(1, 2, 3, 4), ids());
        });
    }

    @ParameterizedTest
    @EnumSource(ClusterKind.class)
    void branchingToTwoBoltsAcksWhenBothHaveAcked(ClusterKind kind) throws Exception {
        Scenario s = new Scenario(kind);
        s.builder.setSpout("spout", new ScriptedSpout(s.run.id(), true), 1);
        s.builder.setBolt("acker", new AckBolt(s.run.id()), 1).shuffleGrouping("spout");
        s.builder.setBolt("pair", new PairAckBolt(s.run.id()), 1).shuffleGrouping("spout");
        s.play(conf(SCENARIO_TIMEOUT_SECS), trace -> {
            BooleanSupplier both1 = () -> s.received("acker") >= 1 && s.received("pair") >= 1;
            trace.step("feed 1", () -> s.run.feed(1), both1, ids(), ids());
            trace.step("feed 2", () -> s.run.feed(2), () -> s.received("pair") >= 2, ids(1, 2), ids());
            trace.step("feed 3", () -> s.run.feed(3), () -> s.received("acker") >= 3 && s.received("pair") >= 3,
                    ids(1, 2), ids());
            trace.step("feed 4", () -> s.run.feed(4), () -> s.received("pair") >= 4, ids(1, 2, 3, 4), ids());
        });
    }

    @ParameterizedTest
    @EnumSource(ClusterKind.class)
    void selfAnchoredChildrenKeepTheirTreeOpenAndCanFailIt(ClusterKind kind) throws Exception {
        Scenario s = new Scenario(kind);
        s.builder.setSpout("spout", new ScriptedSpout(s.run.id(), true), 1);
        s.builder.setBolt("dup", new RelayBolt(s.run.id(), true, SequenceSpout.SEQ), 1).shuffleGrouping("spout");
        s.builder.setBolt("gate", new GatedBolt(s.run.id()), 1).shuffleGrouping("dup");
        s.play(conf(SCENARIO_TIMEOUT_SECS), trace -> {
            trace.step("feed 1, 2", () -> s.run.feed(1, 2), () -> s.received("gate") >= 2, ids(), ids());
            trace.step("release: ack 1, fail 2", () -> s.run.increment("release"), () -> true, ids(1), ids(2));
        });
    }

    @ParameterizedTest
    @EnumSource(ClusterKind.class)
    void emittingTwiceToTheSameAnchorWaitsForBothChildren(ClusterKind kind) throws Exception {
        Scenario s = new Scenario(kind);
        s.builder.setSpout("spout", new ScriptedSpout(s.run.id(), true), 1);
        s.builder.setBolt("split", new TwoStreamBolt(s.run.id()), 1).shuffleGrouping("spout");
        s.builder.setBolt("now", new AckBolt(s.run.id()), 1).shuffleGrouping("split", TwoStreamBolt.NOW);
        s.builder.setBolt("gate", new GatedBolt(s.run.id()), 1).shuffleGrouping("split", TwoStreamBolt.LATER);
        s.play(conf(SCENARIO_TIMEOUT_SECS), trace -> {
            trace.step("feed 1, 2", () -> s.run.feed(1, 2), () -> s.received("gate") >= 2 && s.received("now") >= 2,
                    ids(), ids());
            trace.step("release: ack 1, fail 2", () -> s.run.increment("release"), () -> true, ids(1), ids(2));
        });
    }

    @ParameterizedTest
    @EnumSource(ClusterKind.class)
    void aBasicBoltAnchorsItsOutputAndAcksItsInputAutomatically(ClusterKind kind) throws Exception {
        Scenario s = new Scenario(kind);
        s.builder.setSpout("spout", new ScriptedSpout(s.run.id(), true), 1);
        s.builder.setBolt("basic", new RelayBasicBolt(SequenceSpout.SEQ), 1).shuffleGrouping("spout");
        s.builder.setBolt("gate", new GatedBolt(s.run.id()), 1).shuffleGrouping("basic");
        s.play(conf(SCENARIO_TIMEOUT_SECS), trace -> {
            trace.step("feed 1, 2", () -> s.run.feed(1, 2), () -> s.received("gate") >= 2, ids(), ids());
            trace.step("release: ack 1, fail 2", () -> s.run.increment("release"), () -> true, ids(1), ids(2));
        });
    }

    @ParameterizedTest
    @EnumSource(ClusterKind.class)
    void aBasicBoltThrowingFailedExceptionFailsItsInput(ClusterKind kind) throws Exception {
        Scenario s = new Scenario(kind);
        s.builder.setSpout("spout", new ScriptedSpout(s.run.id(), true), 1);
        s.builder.setBolt("basic", new FailEvenBasicBolt(s.run.id()), 1).shuffleGrouping("spout");
        s.play(conf(SCENARIO_TIMEOUT_SECS), trace ->
                trace.step("feed 1, 2", () -> s.run.feed(1, 2), () -> s.received("basic") >= 2, ids(1), ids(2)));
    }

    @ParameterizedTest
    @EnumSource(ClusterKind.class)
    void aFailedChildFailsItsRoot(ClusterKind kind) throws Exception {
        Scenario s = new Scenario(kind);
        s.builder.setSpout("spout", new ScriptedSpout(s.run.id(), true), 1);
        s.builder.setBolt("relay", new RelayBolt(s.run.id(), false, SequenceSpout.SEQ), 1).shuffleGrouping("spout");
        s.builder.setBolt("judge", new VerdictBolt(s.run.id(), VerdictBolt.Verdict.FAIL, 2, 0), 1)
                .shuffleGrouping("relay");
        s.play(conf(SCENARIO_TIMEOUT_SECS), trace ->
                trace.step("feed 1, 2", () -> s.run.feed(1, 2), () -> s.received("judge") >= 2, ids(1), ids(2)));
    }

    @ParameterizedTest
    @EnumSource(ClusterKind.class)
    void aDroppedTupleTimesOut(ClusterKind kind) throws Exception {
        Scenario s = new Scenario(kind);
        s.builder.setSpout("spout", new ScriptedSpout(s.run.id(), true), 1);
        s.builder.setBolt("dropper", new VerdictBolt(s.run.id(), VerdictBolt.Verdict.DROP, 2, 1), 1)
                .shuffleGrouping("spout");
        s.play(conf(2), trace ->
                trace.step("feed 1, 2; T = 2 s", () -> s.run.feed(1, 2), () -> s.received("dropper") >= 2, ids(2), ids(1)));
    }

    @ParameterizedTest
    @EnumSource(ClusterKind.class)
    void resetTimeoutKeepsATupleAliveBeyondTheTimeout(ClusterKind kind) throws Exception {
        Scenario s = new Scenario(kind);
        s.builder.setSpout("spout", new ScriptedSpout(s.run.id(), true), 1);
        s.builder.setBolt("keeper", new KeepAliveBolt(s.run.id(), 6_000), 1).shuffleGrouping("spout");
        s.play(conf(2), trace -> {
            trace.step("feed 0 (kept alive 6 s), 1 (not); T = 2 s", () -> s.run.feed(0, 1),
                    () -> s.received("keeper") >= 2, ids(0), ids(1));
            trace.fact("0 acked after at least 6 s", s.run.ackDelayMillis(0) >= 6_000);
        });
    }

    @ParameterizedTest
    @EnumSource(ClusterKind.class)
    void tuplesEmittedWithoutAMessageIdAreNeverTracked(ClusterKind kind) throws Exception {
        Scenario s = new Scenario(kind);
        s.builder.setSpout("spout", new ScriptedSpout(s.run.id(), false), 1);
        s.builder.setBolt("judge", new VerdictBolt(s.run.id(), VerdictBolt.Verdict.FAIL, 2, 0), 1)
                .shuffleGrouping("spout");
        s.play(conf(2), trace -> {
            trace.step("feed 1, 2 untracked", () -> s.run.feed(1, 2), () -> s.received("judge") >= 2, ids(), ids());
            trace.quietStep("2.5 T later", 5_000, ids(), ids());
        });
    }

    @ParameterizedTest
    @EnumSource(ClusterKind.class)
    void withNoAckersTuplesAreAckedAsSoonAsEmitted(ClusterKind kind) throws Exception {
        Scenario s = new Scenario(kind);
        s.builder.setSpout("spout", new ScriptedSpout(s.run.id(), true), 1);
        s.builder.setBolt("dropper", new VerdictBolt(s.run.id(), VerdictBolt.Verdict.DROP, 1, 0), 1)
                .shuffleGrouping("spout");
        Config conf = conf(2);
        conf.setNumAckers(0);
        s.play(conf, trace -> {
            trace.step("feed 1, 2, all dropped", () -> s.run.feed(1, 2), () -> s.received("dropper") >= 2, ids(1, 2), ids());
            trace.quietStep("2.5 T later", 5_000, ids(1, 2), ids());
        });
    }

    private static Config conf(int timeoutSecs) {
        Config conf = new Config();
        conf.setMessageTimeoutSecs(timeoutSecs);
        conf.setNumWorkers(1);
        return conf;
    }

    private static SortedSet<Long> ids(long... ids) {
        SortedSet<Long> set = new TreeSet<>();
        for (long id : ids) {
            set.add(id);
        }
        return set;
    }

    /** One scenario on one cluster: its topology, its run record, and the trace compared at the end. */
    private static final class Scenario {
        final ClusterKind kind;
        final RunRecord run = Runs.start(16);
        final TopologyBuilder builder = new TopologyBuilder();

        Scenario(ClusterKind kind) {
            this.kind = kind;
        }

        long received(String component) {
            return run.count("received:" + component);
        }

        void play(Config conf, ThrowingConsumer<Trace> steps) throws Exception {
            Trace trace = new Trace(run);
            try (RunningTopology topology = RunningTopology.submit(cluster(kind), "parity", conf,
                    builder.createTopology())) {
                steps.accept(trace);
            } finally {
                Runs.end(run);
            }
            System.out.println("FIGURE [" + kind + "] parity trace: " + trace.actual);
            assertEquals(trace.expected, trace.actual);
            assertEquals(List.of(), run.violations());
        }
    }

    @FunctionalInterface
    private interface ThrowingConsumer<T> {
        void accept(T value) throws Exception;
    }

    /** Expected and observed spout-side state after each step. */
    private static final class Trace {
        final RunRecord run;
        final List<String> expected = new ArrayList<>();
        final List<String> actual = new ArrayList<>();

        Trace(RunRecord run) {
            this.run = run;
        }

        void step(String name, Runnable action, BooleanSupplier processed, SortedSet<Long> acked,
                  SortedSet<Long> failed) throws InterruptedException {
            action.run();
            boolean wasProcessed = Await.reached(STEP_LIMIT, processed);
            Await.reached(STEP_LIMIT, () -> run.ackedIds().equals(acked) && run.failedIds().equals(failed));
            Thread.sleep(GRACE_MILLIS);
            expected.add(name + ": acked " + acked + " failed " + failed);
            actual.add(name + (wasProcessed ? "" : " (never processed)") + ": acked " + run.ackedIds()
                    + " failed " + run.failedIds());
        }

        /** Absence cannot be awaited: watch for a fixed time that nothing (wrongly) settles. */
        void quietStep(String name, long millis, SortedSet<Long> acked, SortedSet<Long> failed)
                throws InterruptedException {
            Thread.sleep(millis);
            expected.add(name + ": acked " + acked + " failed " + failed);
            actual.add(name + ": acked " + run.ackedIds() + " failed " + run.failedIds());
        }

        void fact(String name, boolean holds) {
            expected.add(name + ": true");
            actual.add(name + ": " + holds);
        }
    }
}
