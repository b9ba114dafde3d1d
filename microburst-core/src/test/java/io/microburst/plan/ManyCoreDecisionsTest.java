package io.microburst.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.plan.ManyCoreModel.Chain;
import io.microburst.plan.ManyCoreModel.Layout;
import io.microburst.plan.ManyCoreModel.Stage;
import io.microburst.plan.PlacementPolicy.Mode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.storm.Config;
import org.apache.storm.testing.TestWordCounter;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * What fusion, slices, placement and automatic parallelism decide on 2, 4, 8 and 16 cores for WordCount, the acked
 * chains and RollingSort, fed the inputs they would see there, with per-component costs from the many-core model
 * (docs/performance/many-core-model.md); each decision is checked against what the model says is right. Pure
 * functions: no threads, no clock.
 */
class ManyCoreDecisionsTest {
    private static final int[] CORES = {2, 4, 8, 16};

    // ---------------------------------------------------------------- WordCount: fusion and slices

    /** WordCount's shape: a spout of {@code spoutTasks}, split (shuffle) and count (fields) of {@code p} executors. */
    private static TopologyPlan wordCount(int spoutTasks, int p, int tasks) throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("sentences", new TestWordSpout(), spoutTasks);
        b.setBolt("split", new TestWordCounter(), p).setNumTasks(tasks).shuffleGrouping("sentences");
        b.setBolt("count", new TestWordCounter(), p).setNumTasks(tasks).fieldsGrouping("split", new Fields("word"));
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        conf.put(Config.TOPOLOGY_ACKER_EXECUTORS, 0);
        return TopologyPlan.build("wc", "wc-1", conf, b.createTopology());
    }

    /** The threads a plan runs on: an executor each, fused ones in their producer's, a slice set's P on P. */
    private static int threads(TopologyPlan plan, FusionPlan f) {
        int threads = 0;
        Set<Integer> sets = new HashSet<>();
        for (ComponentPlan c : plan.components().values()) {
            if (!f.isFused(c.id()) && (!f.isSliced(c.id()) || sets.add(f.sliceSet(c.id())))) {
                threads += c.executors();
            }
        }
        return threads;
    }

    @Test
    void wordCountAtParallelismOneIsOneFusedThreadOnAnyMachine() throws Exception {
        TopologyPlan plan = wordCount(1, 1, 1);
        for (int cores : CORES) {
            FusionPlan f = FusionPlan.of(plan, cores);
            assertTrue(f.isFused("split") && f.isFused("count"), cores + " cores");
            assertEquals(1, threads(plan, f), cores + " cores");
        }
    }

    @Test
    void wordCountAtParallelismTwoIsTwoSlicesOnTwoCoresAndSixThreadsOnMore() throws Exception {
        TopologyPlan plan = wordCount(2, 2, 2);
        for (int cores : CORES) {
            FusionPlan f = FusionPlan.of(plan, cores);
            boolean sliced = f.isSliced("split");
            assertEquals(cores == 2, sliced, cores + " cores");
            assertEquals(cores == 2 ? 2 : 6, threads(plan, f), cores + " cores");
            // the model agrees: slices win where they are made, a thread per executor where they are not
            double slices = ManyCoreModel.slicedWords(2, cores);
            double own = ManyCoreModel.unslicedWords(2, cores);
            assertEquals(sliced, slices > own, cores + " cores: slices " + slices + ", a thread each " + own);
        }
    }

    @Test
    void wordCountAtParallelismEqualToTheCoresRunsASlicePerCore() throws Exception {
        for (int cores : CORES) {
            TopologyPlan plan = wordCount(cores, cores, cores);
            FusionPlan f = FusionPlan.of(plan, cores);
            assertTrue(f.isSliced("sentences") && f.isSliced("split") && f.isSliced("count"), cores + " cores");
            assertEquals(cores, threads(plan, f), cores + " cores");
            // the model cannot tell P slices from 3P threads on P cores apart beyond its error (the crossing between
            // slices costs three times a one-way hand-over; 3P threads lose a fifth to switching): slices are no worse
            double slices = ManyCoreModel.slicedWords(cores, cores);
            double own = ManyCoreModel.unslicedWords(cores, cores);
            assertTrue(slices > 0.9 * own, cores + " cores: slices " + slices + ", a thread each " + own);
            // (P - 1) / P of the words cross: each core does less than a one-core run, and less as P grows
            double perCore = slices / cores / ManyCoreModel.slicedWords(1, 1);
            assertTrue(perCore < 0.9 && perCore > 0.55, cores + " cores: " + perCore);
        }
    }

    // ---------------------------------------------------------------- placement of fused chains

    private static final double SPLIT_PER_SENTENCE = (ManyCoreModel.WORDCOUNT_FUSED - ManyCoreModel.WORDCOUNT_COUNT
        - ManyCoreModel.WORDCOUNT_SPOUT) * ManyCoreModel.WORDS_PER_SENTENCE;

    /** Ordinary WordCount at p=1, fused: a sentence a spout tuple, 15 words each. */
    private static Chain wordCountChain() {
        return new Chain(List.of(
            new Stage("sentences", ManyCoreModel.WORDCOUNT_SPOUT * ManyCoreModel.WORDS_PER_SENTENCE, 1),
            new Stage("split", SPLIT_PER_SENTENCE, 1),
            new Stage("count", ManyCoreModel.WORDCOUNT_COUNT, ManyCoreModel.WORDS_PER_SENTENCE)), false, 0);
    }

    @Test
    void wordCountAtParallelismOneStaysOnOneThreadWhateverTheCores() {
        // count's 77 ns a word would give 1.22x cut off (77 + 20 against 118), but its samples may be 15 ns a word off,
        // and at that 1.05x: the same chain was cut in some JVMs and not in others, so it is not cut on any machine
        for (int cores : CORES) {
            Layout l = ManyCoreModel.place(wordCountChain(), List.of(), cores, Mode.AUTO);
            assertEquals(List.of(), l.cuts(), cores + " cores: " + l.log());
        }
        // a user who wants the second thread asks for it, and gets what one cut gives
        Layout eager = ManyCoreModel.place(wordCountChain(), List.of(), 2, new Mode(true, 1.05));
        assertEquals(List.of(2), eager.cuts(), String.valueOf(eager.log()));
        double gain = eager.sourceRate() / (1e9 / (ManyCoreModel.WORDCOUNT_FUSED * ManyCoreModel.WORDS_PER_SENTENCE));
        assertTrue(gain > 1.2 && gain < 1.25, "2 cores: " + gain);
    }

    /** ConstSpout -> NullBolt acked: 92 ns a tree fused (10.85M trees/s), the bolt and its ack 38% of it. */
    private static Chain ackedConstChain(long maxPending) {
        return new Chain(List.of(new Stage("spout", 57, 1), new Stage("null", 35, 1)), true, maxPending);
    }

    @Test
    void theAckedConstChainStaysFusedOnAnyMachine() {
        for (long maxPending : new long[] {0, 1000}) {
            Chain chain = ackedConstChain(maxPending);
            for (int cores : CORES) {
                Layout l = ManyCoreModel.place(chain, List.of(), cores, Mode.AUTO);
                assertEquals(1, l.threads(), cores + " cores: " + l.log());
            }
            // right: cut, the crossing costs the spout's thread more than the bolt's work it moves
            assertTrue(forcedRate(chain, 1) < forcedRate(chain));
        }
    }

    /**
     * An acked stage: a basic bolt keeping a sum per key, a new Values per emit (50 ns, chain-full), and its tuple's
     * edge in the tree (38 ns: const-id-null-ack against const-null-ack).
     */
    private static final double ACKED_STAGE = 88;
    /** An unacked stage: chain-full's 3.00M tuples/s on 1.52 cores over nine operators and two hand-overs. */
    private static final double UNACKED_STAGE = 50;

    /** The 6-hop chain: a source of 90 ns a tuple and six stages of {@code stageNanos}. */
    private static Chain sixHops(double stageNanos, boolean acked, long maxPending) {
        List<Stage> stages = new ArrayList<>();
        stages.add(new Stage("source", 90, 1));
        for (int i = 1; i <= 6; i++) {
            stages.add(new Stage("stage" + i, stageNanos, 1));
        }
        return new Chain(stages, acked, maxPending);
    }

    @Test
    void theAckedSixHopChainStaysFusedOnAnyMachineWithMaxPendingUnsetOrAThousand() {
        for (long maxPending : new long[] {0, 1000}) {
            Chain chain = sixHops(ACKED_STAGE, true, maxPending);
            for (int cores : CORES) {
                Layout l = ManyCoreModel.place(chain, List.of(), cores, Mode.AUTO);
                assertEquals(1, l.threads(), cores + " cores: " + l.log());
            }
            // right by the latency objective, not by throughput: the best cut (after stage 2) would give about 1.3x,
            // but every tree could then wait behind a thousand or a queue of others, far past 50 µs
            Layout two = ManyCoreModel.best(chain, 2);
            double gain = two.sourceRate() / forcedRate(chain);
            assertTrue(gain > 1.2 && gain < 1.4, "best cut " + two.cuts() + ": " + gain);
            PlacementPolicy.Window w = ManyCoreModel.window(chain, new TreeSet<>(), new int[] {0, 6}, forcedRate(chain));
            int point = two.cuts().get(0) - 1;
            assertTrue(PlacementPolicy.addedLatencyNanos(w, w.points().get(point)) > PlacementPolicy.LATENCY_OBJECTIVE_NANOS);
        }
    }

    /**
     * Known gap (docs/performance/many-core-model.md): with a small max pending the acked 6-hop chain is cut once, as
     * the model says it should be; the thread cut off runs no spout, so its balancer sees no trees, and its own cut is
     * promised without the acked hand-over's cost and without the latency objective, and undone by the outcome check.
     */
    @Test
    void knownGapTheAckedChainsSecondThreadIsCutAsIfUnacked() {
        Chain chain = sixHops(ACKED_STAGE, true, 8);
        for (int cores : CORES) {
            Layout l = ManyCoreModel.place(chain, List.of(), cores, Mode.AUTO);
            assertEquals(List.of(3), l.cuts(), cores + " cores: " + l.log());
            assertTrue(l.log().get(0).endsWith("kept"), l.log().get(0));
            assertEquals(cores > 2, l.log().size() > 1 && l.log().get(1).endsWith("undone"), cores + " cores: " + l.log());
        }
    }

    /**
     * Known gap (docs/performance/many-core-model.md): the policy promises a cut's speed-up on its own thread, but in a
     * pipeline of more than two threads the next slowest thread caps it. The unacked 6-hop chain of 50 ns stages (as
     * chain-full's): the first cut (after stage 2, 1.77x) is kept; with cores free the second is promised 1.69x, gives
     * 1.10x because the first thread then sets the pace, and the outcome check (half the promised margin, 1.35x) undoes
     * it; the first thread's own cut then gives 1.00x and is undone too. Two threads where four or seven run faster.
     */
    @Test
    void knownGapTheUnackedSixHopChainStopsAtTwoThreads() {
        Chain chain = sixHops(UNACKED_STAGE, false, 0);
        double fused = forcedRate(chain);
        for (int cores : CORES) {
            Layout l = ManyCoreModel.place(chain, List.of(), cores, Mode.AUTO);
            assertEquals(List.of(3), l.cuts(), cores + " cores: " + l.log());
            assertTrue(l.sourceRate() / fused > 1.7 && l.log().get(0).endsWith("kept"), cores + " cores: " + l.log());
            double missed = ManyCoreModel.best(chain, cores).sourceRate() / l.sourceRate();
            if (cores == 2) {
                assertEquals(1, missed, 0.01, "two cores: two threads is the best");
            } else {
                assertTrue(l.log().stream().skip(1).allMatch(s -> s.endsWith("undone")), l.log().toString());
                assertTrue(missed > 1.6, cores + " cores: " + missed);
            }
        }
    }

    /**
     * Known gap (docs/performance/many-core-model.md): a cut on a thread that then waits for its input (it parks
     * between batches: stages of 500 ns) is never judged, and is kept after ten windows whatever it gave. The 6-hop
     * chain on 4 cores and more: a third thread for stages 5 and 6 that gives nothing.
     */
    @Test
    void knownGapACutWhoseThreadWaitsForInputIsKeptUnjudged() {
        Chain chain = sixHops(500, false, 0);
        for (int cores : CORES) {
            Layout l = ManyCoreModel.place(chain, List.of(), cores, Mode.AUTO);
            double one = forcedRate(chain, 4);
            assertEquals(one, l.sourceRate(), one / 100, cores + " cores: " + l.log());
            assertEquals(cores > 2, l.log().stream().anyMatch(s -> s.endsWith("kept unjudged, 1.00x")),
                cores + " cores: " + l.log());
            assertEquals(cores > 2 ? 3 : 2, l.threads(), cores + " cores: " + l.log());
        }
    }

    /**
     * chain-full's shape: three fused segments of three (a second input at stages 3 and 6 keeps them apart). With cores
     * free the source's segment is cut, promised 1.48x (the samples' error counted), gives 1.11x because the next
     * segment then sets the pace; the check needs 1.10x and keeps it, and a later cut keeps more. Until 2026-11-29 the
     * check needed half of each cut's own promise and undid both (a known gap). On two cores nothing is tried: three
     * threads already share them.
     */
    @Test
    void chainFullsSegmentsAreCutFurtherWhereCoresAreFree() {
        // since the check needs half the least gain's margin (1.10x), not half of each cut's own promise, the cuts
        // that gave 1.11x and 1.38x on four cores are kept where they were undone before
        Chain chain = sixHops(UNACKED_STAGE, false, 0);
        for (int cores : CORES) {
            Layout l = ManyCoreModel.place(chain, List.of(3, 6), cores, Mode.AUTO);
            double start = ManyCoreModel.place(chain, List.of(3, 6), cores, new Mode(true, 1000)).sourceRate();
            assertTrue(l.cuts().containsAll(List.of(3, 6)), cores + " cores: " + l.log());
            if (cores == 2) {
                assertEquals(List.of(3, 6), l.cuts(), "three threads already share two cores: " + l.log());
            } else {
                assertTrue(l.cuts().size() > 2 && l.sourceRate() > 1.1 * start, cores + " cores: " + l.log());
            }
        }
    }

    /** RollingSort: the user's spout (100 Random digits) 652 ns a message, the sort bolt 42 (1.44M messages/s). */
    private static Chain rollingSort() {
        return new Chain(List.of(new Stage("messages", 652, 1), new Stage("sort", 42, 1)), false, 0);
    }

    @Test
    void rollingSortsSpoutIsNeverGivenMoreThreads() {
        for (int cores : CORES) {
            assertEquals(1, ManyCoreModel.place(rollingSort(), List.of(), cores, Mode.AUTO).threads(), cores + " cores");
            // one spout task: automatic parallelism cannot add executors to it, and the bolt needs none
            List<ParallelismPolicy.Component> measured = List.of(
                new ParallelismPolicy.Component("messages", true, List.of(), 1, 1, 0, 1_440_000, 939_000_000L),
                new ParallelismPolicy.Component("sort", false, List.of("messages"), 1, 1, 1_440_000, 0, 60_000_000L));
            ParallelismPolicy.Decision d = ParallelismPolicy.decide(measured, cores, true);
            assertEquals(Map.of("messages", 1, "sort", 1), d.executors(), d.reason());
            assertFalse(d.changed());
        }
    }

    /** The model's spout tuples a second with threads starting at {@code cuts}, cores enough. */
    private static double forcedRate(Chain chain, Integer... cuts) {
        return ManyCoreModel.rate(chain, new TreeSet<>(List.of(cuts)), 64);
    }
}
