package io.microburst.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.config.ConfigKeys;
import io.microburst.plan.ParallelismPolicy.Component;
import io.microburst.plan.ParallelismPolicy.Decision;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** DS2's policy with known answers, from injected measurements; and its convergence on a simulated topology. */
class ParallelismPolicyTest {
    private static final long SECOND = 1_000_000_000L;

    /**
     * Over one second: spout s (2000/s true rate) feeds a (5000/s, two out per tuple) feeds b (1000/s), one executor
     * each, b the bottleneck, so all run at b's pace: s emits 500, a executes 500 and emits 1000, b executes 1000.
     */
    private static List<Component> bottleneckedAtB(int bTasks) {
        return List.of(
            new Component("s", true, List.of(), 1, 1, 0, 500, SECOND / 4),
            new Component("a", false, List.of("s"), 4, 1, 500, 1000, SECOND / 10),
            new Component("b", false, List.of("a"), bTasks, 1, 1000, 0, SECOND));
    }

    @Test
    void theBottleneckGetsTheExecutorsItsTargetRateNeeds() {
        // targets: s 2000/s, so a 2000/s (0.4 executor), b 4000/s (4 executors); 5.4 executors fit in 8 cores
        Decision d = ParallelismPolicy.decide(bottleneckedAtB(4), 8);
        assertEquals(Map.of("s", 1, "a", 1, "b", 4), d.executors(), d.reason());
        assertTrue(d.changed());
        assertTrue(d.reason().contains("b 1->4") && d.reason().contains("true rate 1000/s"), d.reason());
    }

    @Test
    void theCoresBoundTheSourceRate() {
        // 5.4 executors' worth on 2 cores: every target scaled by 2/5.4, so b needs 1.48 executors: 2
        Decision d = ParallelismPolicy.decide(bottleneckedAtB(4), 2);
        assertEquals(Map.of("s", 1, "a", 1, "b", 2), d.executors(), d.reason());
    }

    @Test
    void whenTheCoresAreTheLimitAndTheRuntimeSlicesEveryComponentGetsASlicePerCore() {
        // 5.4 executors' worth on 2 cores: sliced, a and b (4 tasks each) get 2 executors, s (1 task) keeps 1
        Decision d = ParallelismPolicy.decide(bottleneckedAtB(4), 2, true);
        assertEquals(Map.of("s", 1, "a", 2, "b", 2), d.executors(), d.reason());
        assertTrue(d.reason().contains("a slice per core"), d.reason());
        // 8 cores carry the 5.4 executors: the sources are the limit, and DS2's counts stand
        assertEquals(ParallelismPolicy.decide(bottleneckedAtB(4), 8).executors(),
            ParallelismPolicy.decide(bottleneckedAtB(4), 8, true).executors());
        // a slice per core, but never more executors than tasks
        assertEquals(Map.of("s", 1, "a", 4, "b", 2), ParallelismPolicy.decide(bottleneckedAtB(2), 4, true).executors());
    }

    @Test
    void wordCountAsMeasuredOnTwoCoresRunsAsTwoSlices() {
        // one interval of WordCount (4 tasks a component, one executor each) as measured: split and count each need
        // about one core at the rate the cores allow, so DS2 alone keeps one executor each
        List<Component> measured = List.of(
            new Component("sentences", true, List.of(), 4, 1, 0, 800_000, 55_000_000L),
            new Component("split", false, List.of("sentences"), 4, 1, 800_000, 12_160_000, 1_920_000_000L),
            new Component("count", false, List.of("split"), 4, 1, 12_160_000, 12_160_000, 2_000_000_000L));
        assertEquals(Map.of("sentences", 1, "split", 1, "count", 1), ParallelismPolicy.decide(measured, 2).executors());
        Decision d = ParallelismPolicy.decide(measured, 2, true);
        assertEquals(Map.of("sentences", 2, "split", 2, "count", 2), d.executors(), d.reason());
        assertTrue(d.changed());
    }

    @Test
    void noComponentGetsMoreExecutorsThanTasks() {
        // b has 2 tasks: the source is held to half its rate, so b needs exactly 2
        Decision d = ParallelismPolicy.decide(bottleneckedAtB(2), 8);
        assertEquals(Map.of("s", 1, "a", 1, "b", 2), d.executors(), d.reason());
    }

    @Test
    void measuredAtTheRightCountsItChangesNothing() {
        List<Component> atTarget = List.of(
            new Component("s", true, List.of(), 1, 1, 0, 2000, SECOND),
            new Component("a", false, List.of("s"), 4, 1, 2000, 4000, 4 * SECOND / 10),
            new Component("b", false, List.of("a"), 4, 4, 4000, 0, 4 * SECOND));
        Decision d = ParallelismPolicy.decide(atTarget, 8);
        assertEquals(Map.of("s", 1, "a", 1, "b", 4), d.executors(), d.reason());
        assertFalse(d.changed());
    }

    @Test
    void twoInputsAddUpAndUnmeasuredComponentsKeepTheirCount() {
        List<Component> join = List.of(
            new Component("s1", true, List.of(), 1, 1, 0, 1000, SECOND / 2),
            new Component("s2", true, List.of(), 1, 1, 0, 1000, SECOND / 2),
            new Component("j", false, List.of("s1", "s2"), 8, 1, 2000, 0, SECOND),
            new Component("idle", false, List.of("j"), 3, 3, 0, 0, 0));
        // s1, s2 could each emit 2000/s: j's target is 4000/s at 2000/s per executor
        Decision d = ParallelismPolicy.decide(join, 16);
        assertEquals(Map.of("s1", 1, "s2", 1, "j", 2, "idle", 3), d.executors(), d.reason());
        assertTrue(d.reason().contains("idle 3 (not measured)"), d.reason());
    }

    @Test
    void theSwitchComesFromTheConfiguration() {
        assertFalse(ParallelismPolicy.enabled(Map.of()));
        assertTrue(ParallelismPolicy.enabled(Map.of(ConfigKeys.PARALLELISM, "auto")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ParallelismPolicy.enabled(Map.of(ConfigKeys.PARALLELISM, "max")));
        assertTrue(e.getMessage().contains("microburst.parallelism"), e.getMessage());
    }

    /**
     * A simulated topology: each component has a fixed true rate and selectivity; given executor counts, the chain runs
     * at the pace of its slowest stage (and of the cores), and a window measures what DS2 reads. The policy reaches
     * counts where no stage holds the others back within three decisions, starting from one executor each.
     */
    @Test
    void itConvergesWithinThreeDecisionsOnASimulatedChain() {
        String[] ids = {"spout", "split", "count"};
        double[] trueRate = {3_000_000, 1_000_000, 4_000_000}; // tuples a second per executor
        double[] selectivity = {1, 8, 0};
        int[] tasks = {4, 4, 4};
        Map<String, Integer> counts = new LinkedHashMap<>(Map.of("spout", 1, "split", 1, "count", 1));
        int cores = 4;
        int decisions = 0;
        Decision d;
        do {
            d = ParallelismPolicy.decide(simulate(ids, trueRate, selectivity, tasks, counts, cores), cores);
            counts = new LinkedHashMap<>(d.executors());
            decisions++;
        } while (d.changed() && decisions < 10);
        assertTrue(decisions <= 3, decisions + " decisions: " + d.reason());
        // per spout tuple: 1/3M + 1/1M + 8/4M = 3.33 µs of work; 4 cores carry 1.2M spout tuples a second:
        // 0.4 spout executors, 1.2 split, 2.4 count
        assertEquals(Map.of("spout", 1, "split", 2, "count", 3), counts, d.reason());
    }

    private static List<Component> simulate(String[] ids, double[] trueRate, double[] selectivity, int[] tasks,
        Map<String, Integer> counts, int cores) {
        // per spout tuple, the tuples each stage takes and the executor-seconds that costs
        double[] perSpoutTuple = new double[ids.length];
        double flow = 1;
        double work = 0;
        double rate = Double.MAX_VALUE;
        for (int i = 0; i < ids.length; i++) {
            perSpoutTuple[i] = flow;
            work += flow / trueRate[i];
            rate = Math.min(rate, counts.get(ids[i]) * trueRate[i] / flow);
            flow *= selectivity[i];
        }
        rate = Math.min(rate, cores / work);
        List<Component> out = new ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            double in = rate * perSpoutTuple[i];
            long useful = (long) (in / trueRate[i] * SECOND);
            boolean spout = i == 0;
            out.add(new Component(ids[i], spout, spout ? List.of() : List.of(ids[i - 1]), tasks[i], counts.get(ids[i]),
                spout ? 0 : (long) in, (long) (spout ? in : in * selectivity[i]), useful));
        }
        return out;
    }
}
