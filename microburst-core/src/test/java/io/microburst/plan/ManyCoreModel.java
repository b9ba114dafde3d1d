package io.microburst.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The many-core cost model of docs/performance/many-core-model.md, for tests: the costs measured on the 2-core
 * machine, what a layout would run at on a machine of more cores, and the loop the runtime runs around the placement
 * policy (measure a window per thread, ask {@link PlacementPolicy#decide}, cut, check the outcome with
 * {@link DecisionCheck#judge}, undo a cut that did not pay), played on the model instead of on threads. Every cost is
 * in nanoseconds of one core's time; the note says where each was measured.
 *
 * <p>Threading: stateless; any thread.
 */
final class ManyCoreModel {
    /** What a tuple handed over between two threads of a pipeline costs its producer (a batch slot). */
    static final double PIPE_PRODUCER = 10;
    /** ... and its consumer (drained, its tuple built, caches missed): WordCount p=1's count thread, cut. */
    static final double PIPE_CONSUMER = 20;
    /**
     * What a word crossing between two slices costs the two slices together: at p=2 half the words cross, and a word
     * costs a slice 168 ns of a core against 118 fused, so (168 - 118 - {@link #FIELDS_HASH}) * 2.
     */
    static final double SLICE_CROSSING = 92;
    /**
     * What the fields grouping adds to a word once the count has more than one task: the call and the modulo. Its
     * hashing (10.6% of a slice's samples) is moved, not added: the word's String caches the hash the count's HashMap
     * would otherwise compute.
     */
    static final double FIELDS_HASH = 4;
    /** What a handed-over tuple of an acked tree costs its producer's thread beyond {@link #PIPE_PRODUCER}. */
    static final double ACKED_PRODUCER = 170;
    /** ... and its consumer's beyond {@link #PIPE_CONSUMER}. */
    static final double ACKED_CONSUMER = 70;
    /** Ordinary WordCount fused on one thread, a word (8.55M words/s on 1.01 cores). */
    static final double WORDCOUNT_FUSED = 118;
    /** Of which the count bolt, as the balancer measures it (65% of the thread). */
    static final double WORDCOUNT_COUNT = 77;
    /** Of which the spout, a word's share of a sentence (2-5% of a thread). */
    static final double WORDCOUNT_SPOUT = 4;
    /** Words in a sentence of the corpus. */
    static final double WORDS_PER_SENTENCE = 15;
    /** The one-core layout's context switches: 6 threads on 2 cores spent 21.8% of their samples switching. */
    static final double OVERSUBSCRIBED_SHARE = 0.22;

    private ManyCoreModel() {
    }

    /**
     * Ordinary WordCount as P slices (P threads, each a spout, a split and a count task), words a second: each slice
     * pays the fused cost, the fields hash once P > 1, and (P - 1) / P of the words cross to another slice.
     */
    static double slicedWords(int p, int cores) {
        double perWord = WORDCOUNT_FUSED + (p > 1 ? FIELDS_HASH : 0) + SLICE_CROSSING * (p - 1) / p;
        return Math.min(p, cores) * 1e9 / perWord;
    }

    /**
     * Ordinary WordCount at P executors a component, each on a thread of its own (no slices): every word crosses from
     * a split to a count thread once. The slowest side sets the pace; when the busy threads outnumber the cores, the
     * cores share the work and lose {@link #OVERSUBSCRIBED_SHARE} to switching.
     */
    static double unslicedWords(int p, int cores) {
        double hash = p > 1 ? FIELDS_HASH : 0;
        double split = WORDCOUNT_FUSED - WORDCOUNT_COUNT - WORDCOUNT_SPOUT + PIPE_PRODUCER + hash;
        double count = WORDCOUNT_COUNT + PIPE_CONSUMER;
        double paced = p * 1e9 / Math.max(split, count);
        double total = WORDCOUNT_FUSED + PIPE_PRODUCER + PIPE_CONSUMER + hash;
        double share = 2 * p > cores ? 1 - OVERSUBSCRIBED_SHARE : 1;
        return Math.min(paced, cores * share * 1e9 / total);
    }

    /**
     * One component of a chain: its time a tuple it executes (for the spout, a tuple it emits), what is fused after it
     * excluded, and how many tuples it takes for each tuple the spout emits.
     */
    record Stage(String name, double nanos, double perSourceTuple) {
    }

    /**
     * A linear chain, the spout first, fused from stage {@code i} to {@code i + 1} except at {@code cuts}.
     *
     * @param acked the spout emits with message ids, acking on
     * @param maxPending max spout pending, 0 when unset
     */
    record Chain(List<Stage> stages, boolean acked, long maxPending) {
    }

    /**
     * Where the chain ended up: the first stage of each thread after the first, the spout tuples a second the model
     * gives that layout, and what was decided on the way.
     */
    record Layout(List<Integer> cuts, double sourceRate, List<String> log) {
        int threads() {
            return cuts.size() + 1;
        }
    }

    /** The queue of a consumer, in tuples (64 batches of 64). */
    static final long QUEUE_TUPLES = 4096;
    /** Tuples a hand-over carries when the producer is busy. */
    static final double BATCH_TUPLES = 64;
    /**
     * How long an executor out of work spins and yields before it parks (64 spin turns, 8 yields): an estimate, not
     * measured; a gap shorter than this is spent spinning and counts as busy.
     */
    static final double SPIN_PHASE_NANOS = 15_000;

    /**
     * Plays the runtime's placement loop on {@code chain}, starting with threads starting at {@code startCuts}, on
     * {@code cores} cores: each round every thread with fused tasks closes a window measured on the model, the policy
     * decides (the same cut twice in a row is what the model's steady windows always give), the busiest thread's cut
     * is made, and the outcome is judged on the model's rates (throughput only: acked chains' latency is left to the
     * policy's objective), unless the thread that cut then waits for its input, which {@code CutCheck} does not judge
     * (such a cut is kept); an undone cut is not tried again (the load does not change). The runtime's undo moves only
     * that cut's tasks back (see {@code CutReturn}); the other cuts stay, as here. Stops when no thread cuts.
     */
    static Layout place(Chain chain, List<Integer> startCuts, int cores, PlacementPolicy.Mode mode) {
        TreeSet<Integer> cuts = new TreeSet<>(startCuts);
        List<Integer> refused = new ArrayList<>();
        List<String> log = new ArrayList<>();
        for (int round = 0; round < 64; round++) {
            double rate = rate(chain, cuts, cores);
            List<int[]> threads = threads(chain, cuts);
            int busy = 0;
            for (int[] t : threads) {
                busy += busy(chain, cuts, t, rate) ? 1 : 0;
            }
            int best = -1;
            int bestHead = 0;
            double bestLoad = 0;
            PlacementPolicy.Cut bestCut = null;
            for (int[] t : threads) {
                PlacementPolicy.Window w = window(chain, cuts, t, rate);
                PlacementPolicy.Cut cut = PlacementPolicy.decide(mode, w, busy, cores);
                if (cut == null || refused.contains(t[0] + 1 + cut.point())) {
                    continue;
                }
                double load = cost(chain, cuts, t);
                if (load > bestLoad) {
                    bestHead = t[0];
                    best = t[0] + 1 + cut.point();
                    bestLoad = load;
                    bestCut = cut;
                }
            }
            if (best < 0) {
                break;
            }
            int head = bestHead;
            cuts.add(best);
            double after = rate(chain, cuts, cores);
            Stage moved = chain.stages().get(best);
            int[] cutter = {head, best - 1};
            double cutterBusy = 1 - idleSeen(chain, cuts, cutter, after) / 1e9;
            if (waitsForInput(chain, cuts, cutter) && cutterBusy < 1 - PlacementPolicy.MAX_IDLE_SHARE) {
                // CutCheck judges no window in which the cutting thread parked for want of work: its input (another
                // thread) sets the pace, and after CutCheck.MAX_WINDOWS such windows the cut is kept as it is
                log.add("cut at " + moved.name() + ": " + bestCut.reason() + "; its thread then waits for input ("
                    + Math.round(100 * cutterBusy) + "% busy): kept unjudged, " + String.format(java.util.Locale.ROOT,
                    "%.2fx", after / rate));
                continue;
            }
            DecisionCheck.Verdict v = DecisionCheck.judge(
                new DecisionCheck.Outcome(rate * moved.perSourceTuple(), -1),
                new DecisionCheck.Outcome(after * moved.perSourceTuple(), -1), bestCut.gain(), mode.minGain());
            log.add("cut at " + moved.name() + ": " + bestCut.reason() + "; " + v.reason());
            if (!v.keep()) {
                cuts.remove(best);
                refused.add(best);
            }
        }
        return new Layout(List.copyOf(cuts), rate(chain, cuts, cores), log);
    }

    /**
     * The fastest layout of {@code chain} on at most {@code cores} threads, by trying every set of cuts (a chain of a
     * few stages): what a policy that knew the whole pipeline would choose.
     */
    static Layout best(Chain chain, int cores) {
        int n = chain.stages().size() - 1;
        TreeSet<Integer> bestCuts = new TreeSet<>();
        double bestRate = rate(chain, bestCuts, cores);
        for (int mask = 1; mask < 1 << n; mask++) {
            if (Integer.bitCount(mask) + 1 > cores) {
                continue;
            }
            TreeSet<Integer> cuts = new TreeSet<>();
            for (int i = 0; i < n; i++) {
                if ((mask & 1 << i) != 0) {
                    cuts.add(i + 1);
                }
            }
            double r = rate(chain, cuts, cores);
            if (r > bestRate * 1.001) {
                bestRate = r;
                bestCuts = cuts;
            }
        }
        return new Layout(List.copyOf(bestCuts), bestRate, List.of());
    }

    /** The spout tuples a second a layout runs at: the slowest thread's pace, and the cores' (threads past them share). */
    static double rate(Chain chain, TreeSet<Integer> cuts, int cores) {
        double slowest = 0;
        double total = 0;
        for (int[] t : threads(chain, cuts)) {
            double c = cost(chain, cuts, t);
            slowest = Math.max(slowest, c);
            total += c;
        }
        return Math.min(1e9 / slowest, cores * 1e9 / total);
    }

    /** Each thread's first and last stage (inclusive). */
    static List<int[]> threads(Chain chain, TreeSet<Integer> cuts) {
        List<int[]> out = new ArrayList<>();
        int start = 0;
        for (int cut : cuts) {
            out.add(new int[] {start, cut - 1});
            start = cut;
        }
        out.add(new int[] {start, chain.stages().size() - 1});
        return out;
    }

    /** A thread's time for each spout tuple: its stages, and the hand-overs in and out, at their measured cost. */
    static double cost(Chain chain, TreeSet<Integer> cuts, int[] t) {
        double c = 0;
        for (int i = t[0]; i <= t[1]; i++) {
            Stage s = chain.stages().get(i);
            c += s.nanos() * s.perSourceTuple();
        }
        double acked = chain.acked() ? 1 : 0;
        if (t[0] > 0) {
            c += chain.stages().get(t[0]).perSourceTuple() * (PIPE_CONSUMER + acked * ACKED_CONSUMER);
        }
        if (t[1] < chain.stages().size() - 1) {
            c += chain.stages().get(t[1] + 1).perSourceTuple() * (PIPE_PRODUCER + acked * ACKED_PRODUCER);
        }
        return c;
    }

    /**
     * The idle time a thread's window shows in a second at {@code rate}: a thread before the slowest one waits for
     * room in its consumer's queue, which the balancer counts as idle; one after it waits for its input, which the
     * balancer sees only once the thread parks: a gap between two batches of input shorter than the idle strategy's
     * spins and yields ({@link #SPIN_PHASE_NANOS}) is spent spinning and looks busy.
     */
    static double idleSeen(Chain chain, TreeSet<Integer> cuts, int[] t, double rate) {
        double c = cost(chain, cuts, t);
        double idle = Math.max(0, 1e9 - c * rate);
        return waitsForInput(chain, cuts, t) && inputGapNanos(chain, t, c, rate) < SPIN_PHASE_NANOS ? 0 : idle;
    }

    /** Whether the thread comes after the slowest thread of the chain (it waits for input, not for room). */
    static boolean waitsForInput(Chain chain, TreeSet<Integer> cuts, int[] t) {
        int slowest = 0;
        double max = 0;
        for (int[] u : threads(chain, cuts)) {
            double c = cost(chain, cuts, u);
            if (c > max) {
                max = c;
                slowest = u[0];
            }
        }
        return t[0] > slowest;
    }

    /** The idle gap between two batches of the thread's input at {@code rate}. */
    private static double inputGapNanos(Chain chain, int[] t, double cost, double rate) {
        double perBatch = BATCH_TUPLES / chain.stages().get(t[0]).perSourceTuple();
        return perBatch * Math.max(0, 1e9 / rate - cost);
    }

    private static boolean busy(Chain chain, TreeSet<Integer> cuts, int[] t, double rate) {
        return window(chain, cuts, t, rate).busy();
    }

    /**
     * What a thread's balancer measures in a second at {@code rate}: its time busy (the rest parked or waiting for
     * room, which counts as idle), and for each fused task the tuples and the time of its executes, what is fused after
     * it included. Acked trees are tracked on the spout's thread only, as the balancer sees them.
     */
    static PlacementPolicy.Window window(Chain chain, TreeSet<Integer> cuts, int[] t, double rate) {
        long busyNanos = 1_000_000_000L - (long) idleSeen(chain, cuts, t, rate);
        List<PlacementPolicy.Point> points = new ArrayList<>();
        for (int i = t[0] + 1; i <= t[1]; i++) {
            double spent = 0;
            for (int j = i; j <= t[1]; j++) {
                Stage s = chain.stages().get(j);
                spent += s.nanos() * s.perSourceTuple();
            }
            Stage s = chain.stages().get(i);
            points.add(new PlacementPolicy.Point(s.name(), (long) (rate * s.perSourceTuple()), (long) (spent * rate)));
        }
        PlacementPolicy.Tracking tracking = chain.acked() && t[0] == 0
            ? new PlacementPolicy.Tracking(true, chain.maxPending(), QUEUE_TUPLES) : PlacementPolicy.Tracking.NONE;
        return new PlacementPolicy.Window(1_000_000_000L, 1_000_000_000L - busyNanos, points, tracking);
    }
}
