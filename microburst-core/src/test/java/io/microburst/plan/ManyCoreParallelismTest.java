package io.microburst.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.testing.TestWordCounter;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * Automatic parallelism ({@link ParallelismPolicy}, DS2 with slices) on 4, 8 and 16 cores for WordCount of 16 tasks a
 * component started at one executor each, fed what {@code AutoParallelism} would measure there, the costs from the
 * many-core model (docs/performance/many-core-model.md); and what fusion then makes of the counts. Pure functions.
 */
class ManyCoreParallelismTest {
    private static final int TASKS = 16;
    private static final double SPLIT = (ManyCoreModel.WORDCOUNT_FUSED - ManyCoreModel.WORDCOUNT_COUNT
        - ManyCoreModel.WORDCOUNT_SPOUT) * ManyCoreModel.WORDS_PER_SENTENCE;
    private static final double WORDS = ManyCoreModel.WORDS_PER_SENTENCE;

    /** A thread's time for a sentence, per component, each executor on a thread of its own (nothing fused). */
    private static double[] perSentence(double spoutNanos) {
        return new double[] {
            spoutNanos + ManyCoreModel.PIPE_PRODUCER,
            SPLIT + WORDS * (ManyCoreModel.PIPE_PRODUCER + ManyCoreModel.FIELDS_HASH) + ManyCoreModel.PIPE_CONSUMER,
            WORDS * (ManyCoreModel.WORDCOUNT_COUNT + ManyCoreModel.PIPE_CONSUMER)};
    }

    /** Sentences a second at these executor counts: the slowest component's executors, and the cores. */
    private static double rate(double spoutNanos, int[] executors, int cores) {
        double[] cost = perSentence(spoutNanos);
        double rate = cores * 1e9 / (cost[0] + cost[1] + cost[2]);
        for (int i = 0; i < 3; i++) {
            rate = Math.min(rate, executors[i] * 1e9 / cost[i]);
        }
        return rate;
    }

    /**
     * One second as {@code AutoParallelism} measures it: tuples executed and emitted, and useful time (a bolt's sampled
     * executes, its emits included; a spout's thread's busy time less its bolts').
     */
    private static List<ParallelismPolicy.Component> measure(double spoutNanos, int spoutTasks, int[] executors,
        int cores) {
        double r = rate(spoutNanos, executors, cores);
        double[] cost = perSentence(spoutNanos);
        return List.of(
            new ParallelismPolicy.Component("sentences", true, List.of(), spoutTasks, executors[0], 0, (long) r,
                (long) (r * cost[0])),
            new ParallelismPolicy.Component("split", false, List.of("sentences"), TASKS, executors[1], (long) r,
                (long) (r * WORDS), (long) (r * (cost[1] - ManyCoreModel.PIPE_CONSUMER))),
            new ParallelismPolicy.Component("count", false, List.of("split"), TASKS, executors[2], (long) (r * WORDS),
                (long) (r * WORDS), (long) (r * WORDS * ManyCoreModel.WORDCOUNT_COUNT)));
    }

    private static int[] counts(ParallelismPolicy.Decision d) {
        return new int[] {d.executors().get("sentences"), d.executors().get("split"), d.executors().get("count")};
    }

    private static TopologyPlan plan(int spoutTasks, int[] executors) throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("sentences", new TestWordSpout(), executors[0]).setNumTasks(spoutTasks);
        b.setBolt("split", new TestWordCounter(), executors[1]).setNumTasks(TASKS).shuffleGrouping("sentences");
        b.setBolt("count", new TestWordCounter(), executors[2]).setNumTasks(TASKS)
            .fieldsGrouping("split", new Fields("word"));
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        conf.put(Config.TOPOLOGY_ACKER_EXECUTORS, 0);
        return TopologyPlan.build("wc", "wc-1", conf, b.createTopology());
    }

    @Test
    void wordCountWithACheapSpoutGetsASlicePerCore() throws Exception {
        for (int cores : new int[] {2, 4, 8, 16}) {
            int[] start = {1, 1, 1};
            ParallelismPolicy.Decision d = ParallelismPolicy.decide(measure(60, TASKS, start, cores), cores, true);
            // the spout could feed far more than the cores can split and count: a slice per core, spout included
            assertEquals(Map.of("sentences", cores, "split", cores, "count", cores), d.executors(), d.reason());
            FusionPlan f = FusionPlan.of(plan(TASKS, counts(d)), cores);
            assertTrue(f.isSliced("sentences") && f.isSliced("split") && f.isSliced("count"), cores + " cores");
            // the model: a slice per core beats one executor each by more than the outcome check's margin
            double before = rate(60, start, cores) * WORDS;
            assertTrue(ManyCoreModel.slicedWords(cores, cores) > before, cores + " cores");
        }
    }

    @Test
    void aSpoutBoundWordCountGetsExecutorsUpToTheSpoutsPaceAndNoMore() throws Exception {
        // one spout task of 500 ns a sentence: it can feed 1.96M sentences a second, about 2 split and 3 count
        // executors' worth; on 8 and 16 cores DS2's counts stand, the same on both, and no thread waits on the spout
        double spout = 500;
        for (int cores : new int[] {8, 16}) {
            int[] start = {1, 1, 1};
            ParallelismPolicy.Decision d = ParallelismPolicy.decide(measure(spout, 1, start, cores), cores, true);
            int[] counts = counts(d);
            assertEquals(1, counts[0], d.reason());
            assertEquals(2, counts[1], d.reason());
            assertEquals(3, counts[2], d.reason());
            FusionPlan f = FusionPlan.of(plan(1, counts), cores);
            assertFalse(f.isSliced("split"), "six executors fit " + cores + " cores");
            // the model: at these counts the spout is the bottleneck, so more executors would buy nothing
            double r = rate(spout, counts, cores);
            assertEquals(1e9 / perSentence(spout)[0], r, 1, cores + " cores");
            assertTrue(DecisionCheck.judge(new DecisionCheck.Outcome(rate(spout, start, cores), -1),
                new DecisionCheck.Outcome(r, -1), 1).keep());
            // the next decision, measured at those counts, changes nothing
            ParallelismPolicy.Decision next = ParallelismPolicy.decide(measure(spout, 1, counts, cores), cores, true);
            assertFalse(next.changed(), next.reason());
        }
    }

    @Test
    void onFourCoresTheSpoutBoundWordCountIsCoreBoundAndSliced() throws Exception {
        // the same topology on 4 cores: the work needs more than 4 cores, so split and count get a slice per core
        // while the spout keeps its one task on a thread of its own
        ParallelismPolicy.Decision d = ParallelismPolicy.decide(measure(500, 1, new int[] {1, 1, 1}, 4), 4, true);
        assertEquals(Map.of("sentences", 1, "split", 4, "count", 4), d.executors(), d.reason());
        FusionPlan f = FusionPlan.of(plan(1, counts(d)), 4);
        assertTrue(f.isSliced("split") && f.isSliced("count") && !f.isSliced("sentences"));
    }
}
