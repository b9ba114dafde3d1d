package io.microburst.plan;

import java.util.List;
import java.util.Locale;
import io.microburst.config.ConfigKeys;

/**
 * Where to cut a fused chain in two, as a pure function of what one executor measured over a window: its busy time,
 * and for each fused task (a possible cut point: that task and everything fused after it move to a thread of their
 * own) the tuples it executed and the time they took. No clock, no threads: the runtime measures, this decides.
 *
 * <p>In an acked chain whose spout runs on the thread, a handed-over tuple costs more on both sides
 * ({@link #ACKED_PRODUCER_NANOS}, {@link #ACKED_CONSUMER_NANOS}: its tree completes across cores), and a cut must keep
 * the latency objective ({@link #LATENCY_OBJECTIVE_NANOS}, see {@link #addedLatencyNanos}): with max spout pending
 * unset the spout runs a whole queue ahead of its consumer, so such a chain is cut only when its bolts are slow and
 * max spout pending small.
 *
 * <p>Two rules, chosen by {@link ConfigKeys#PLACEMENT}:
 * <ul>
 *   <li>{@code auto} (cost-based): a cut makes two threads whose throughput is set by the slower of them. For a cut
 *       point that took {@code spent} of the window's {@code busy} time over {@code n} tuples, the producer's side then
 *       takes {@code busy - spent + n * PRODUCER_HANDOVER_NANOS}, the consumer's {@code spent + n *
 *       CONSUMER_HANDOVER_NANOS}; the expected speed-up is {@code busy} over the larger of the two, that one taken
 *       {@link #SAMPLE_ERROR_NANOS} a tuple longer (the samples cannot place a task's time closer). The cut with the
 *       largest speed-up is chosen when it reaches the mode's least gain ({@link #MIN_GAIN} unless configured). So two stages of about half each are cut, while
 *       a chain of cheap tasks, whose hand-over would cost as much as their work, stays fused, whatever the mean
 *       execute time.</li>
 *   <li>{@code static}: the rule of earlier versions, a fused task taking a quarter to three quarters of the thread at
 *       a microsecond or more a tuple.</li>
 * </ul>
 * Both cut only a thread that was busy through the window (parked under a tenth of it) and had a core while busy (not
 * {@link Window#starved}), and only while a core is free.
 * The caller adds the hysteresis in time (the same cut chosen in two windows in a row) and checks the outcome of the
 * cut it makes ({@link DecisionCheck}).
 *
 * <p>Threading: stateless; any thread.
 */
public final class PlacementPolicy {
    /**
     * What a tuple handed over between threads costs its producer (stored into a batch, handed over 64 at a time),
     * beyond a fused call. From the fused and unfused ConstSpout-to-NullBolt benchmarks (17 ns a fused tuple, about
     * 22 ns on the slower side of an unfused one).
     */
    public static final long PRODUCER_HANDOVER_NANOS = 10;
    /** What a handed-over tuple costs its consumer beyond a fused call: drained, its tuple built, caches missed. */
    public static final long CONSUMER_HANDOVER_NANOS = 20;
    /**
     * The expected speed-up a cut must promise by default: a cut takes a thread and a core, and undoing one (see
     * {@link DecisionCheck}) restarts the topology's instances. 1.2:
     * ordinary WordCount at p=1 (count 65% of the thread) was predicted 1.19-1.32x window to window and ran 1.28-1.37x
     * faster once cut, so a bar of 1.3 cut it in some runs only (docs/performance/2026-11-24-placement-and-auto.md).
     */
    public static final double MIN_GAIN = 1.2;
    /**
     * How far a fused task's sampled time a tuple may be from what a cut there moves, either way. The samples read the
     * clock around a call the JIT inlined into its producer's loop, and where the compiled code puts the work of the two
     * (the tuple, the emit, the hand-on) differs from JVM to JVM: in eleven fresh JVMs of the suite's WordCount p=1 at
     * the same load, count's sampled time a word was 16 to 46 ns while split and count together took 60-78 ns, and the
     * cut's estimate went from 1.02x to 1.41x around the least gain, so the chain was cut in some runs and not in
     * others, and the cuts made gave 0.94x to 1.49x (docs/performance/2026-11-29-certain-cuts.md). A cut is decided on
     * the gain the window vouches for with this error counted against it ({@link #sureGain}): a task of some tens of
     * nanoseconds a tuple, where the hand-over costs as much as the work, is not cut on a guess; a task of a
     * microsecond a tuple hardly notices.
     */
    public static final long SAMPLE_ERROR_NANOS = 15;
    /**
     * What a handed-over tuple of an acked tree costs its producer's thread beyond {@link #PRODUCER_HANDOVER_NANOS}, when
     * the tree's spout stays on that thread: the tree's completion comes back from the other core (the tree and the
     * mail that carries it are cache misses, the mailbox is written by two threads), and the spout runs ahead of its
     * consumer into a full queue, so its pending trees pile up to the queue's capacity. Measured: the acked
     * ConstSpout-to-NullBolt chain with max spout pending unset did 5.5M trees/s fused on one core (182 ns a tree), and
     * 3.4M on 1.53 cores once cut, its spout's thread busy all the time (294 ns a tree, the bolt's work gone from it):
     * about 180 ns more a tree on the producer's side
     * (docs/performance/2026-11-27-outcome-checked-placement.md).
     */
    public static final long ACKED_PRODUCER_NANOS = 150;
    /**
     * What a handed-over tuple of an acked tree costs its consumer beyond {@link #CONSUMER_HANDOVER_NANOS}: its ack XORs
     * a tree the producer's core wrote, and a completed tree is posted to the spout's mailbox across cores. Measured on
     * the same chain: the consumer's thread took about 0.53 of a core at 3.4M (156 ns a tree) for a bolt that cost
     * about 60 ns fused.
     */
    public static final long ACKED_CONSUMER_NANOS = 60;
    /**
     * The latency objective of a cut in an acked chain: the complete latency a cut may add. A cut lets the spout run
     * ahead of its consumer by as many tuples as may be pending (max spout pending, or, unset, the consumer's queue),
     * and each waits behind those before it: the added latency is that many tuples times the consumer's time a tuple.
     * 50 µs: an acked chain of fast bolts completes a tree in 5-15 µs fused; a cut that may add more than some tens of
     * microseconds to every tree trades latency its users see for throughput they may not need.
     */
    public static final long LATENCY_OBJECTIVE_NANOS = 50_000;
    /** A window counts as busy when its thread parked less than this share of it. */
    public static final double MAX_IDLE_SHARE = 0.1;
    /**
     * A busy window whose thread waited for a core more than this share of its unparked time was starved
     * ({@link Window#starved}): no cut is decided on it. 0.15: a thread alone on its core waits a few percent (the
     * timer, the collector, short preemptions); under other work, or while the JIT's compilers run at start, WordCount
     * p=1's thread waited a fifth to nine tenths of the time (docs/performance/2026-11-27-stable-layouts.md).
     */
    public static final double MAX_WAIT_SHARE = 0.15;
    private static final double MIN_STATIC_SHARE = 0.25;
    private static final double MAX_STATIC_SHARE = 0.75;
    private static final long MIN_STATIC_EXECUTE_NANOS = 1_000;

    /**
     * The placement rule of a topology: cost-based or static ({@link ConfigKeys#PLACEMENT}), and for the cost-based rule
     * the least expected speed-up of a cut ({@link ConfigKeys#PLACEMENT_MIN_GAIN}, {@link #MIN_GAIN} by default).
     *
     * @param costBased the cost-based rule ({@code auto}), else the static one
     * @param minGain the expected speed-up a cost-based cut must promise
     */
    public record Mode(boolean costBased, double minGain) {
        /** Cost-based, with the default least gain. */
        public static final Mode AUTO = new Mode(true, MIN_GAIN);
        /** The static share rule. */
        public static final Mode STATIC = new Mode(false, MIN_GAIN);

        /** The mode a topology configuration asks for; auto with {@link #MIN_GAIN} when unset. */
        public static Mode of(java.util.Map<String, Object> conf) {
            Object value = conf.get(ConfigKeys.PLACEMENT);
            String s = value == null ? "auto" : String.valueOf(value).trim().toLowerCase(Locale.ROOT);
            boolean costBased = switch (s) {
                case "auto" -> true;
                case "static" -> false;
                default -> throw new IllegalArgumentException(ConfigKeys.PLACEMENT + " must be auto or static, not '"
                    + value + "'");
            };
            Object gain = conf.get(ConfigKeys.PLACEMENT_MIN_GAIN);
            double minGain = MIN_GAIN;
            if (gain != null) {
                try {
                    minGain = gain instanceof Number n ? n.doubleValue() : Double.parseDouble(String.valueOf(gain).trim());
                } catch (NumberFormatException e) {
                    minGain = Double.NaN;
                }
                if (!(minGain >= 1)) {
                    throw new IllegalArgumentException(ConfigKeys.PLACEMENT_MIN_GAIN + " must be a number of at least 1 "
                        + "(the expected speed-up a cut must promise), not '" + gain + "'");
                }
            }
            return new Mode(costBased, minGain);
        }
    }

    /**
     * One fused task of the executor, measured over the window.
     *
     * @param name the task, for the reason given
     * @param tuples tuples it executed in the window
     * @param spentNanos time its executes took in the window, what is fused after it included; negative if unknown
     */
    public record Point(String name, long tuples, long spentNanos) {
    }

    /**
     * One executor's window.
     *
     * @param elapsedNanos the window's length
     * @param parkedNanos time the executor's thread parked in it
     * @param points its fused tasks
     * @param tracking the acked trees of the thread's spouts
     * @param waitNanos time the thread was runnable in the window but waited for a core (other threads had them), or a
     *     negative number when the platform does not say
     */
    public record Window(long elapsedNanos, long parkedNanos, List<Point> points, Tracking tracking, long waitNanos) {
        public Window {
            points = List.copyOf(points);
        }

        /** A window whose thread's waits for a core are not known. */
        public Window(long elapsedNanos, long parkedNanos, List<Point> points, Tracking tracking) {
            this(elapsedNanos, parkedNanos, points, tracking, -1);
        }

        /** A window of a thread whose spouts track no trees (or that runs no spout). */
        public Window(long elapsedNanos, long parkedNanos, List<Point> points) {
            this(elapsedNanos, parkedNanos, points, Tracking.NONE);
        }

        /** Busy all through: parked under {@link #MAX_IDLE_SHARE} of it. */
        public boolean busy() {
            return elapsedNanos > 0 && parkedNanos < elapsedNanos * MAX_IDLE_SHARE;
        }

        /**
         * The time the thread's work took: not parked, and not waiting for a core when that is known. A thread that
         * waited for a core (other processes, the JIT's compilers at start) was not parked, but its tasks' sampled
         * execute times leave those waits out (a sample that long is dropped as a pause): counted as work, the waits
         * looked like the cost of whatever was not sampled, the chain's head, and a cut there was promised a speed-up
         * the work did not hold. Time blocked in user code (a sleep, a call to a service) is no wait for a core: it
         * stays work, as it is in the samples.
         */
        public long busyNanos() {
            long unparked = elapsedNanos - parkedNanos;
            return waitNanos < 0 ? unparked : Math.max(0, unparked - waitNanos);
        }

        /**
         * Whether the thread waited for a core for more than {@link #MAX_WAIT_SHARE} of the time it was not parked:
         * the machine's cores were taken by other work, so none is free for a cut, and the window's shares say more
         * about that work than about the chain's costs.
         */
        public boolean starved() {
            return waitNanos >= 0 && waitNanos > (elapsedNanos - parkedNanos) * MAX_WAIT_SHARE;
        }
    }

    /**
     * Whether the fused chain carries acked trees whose spout runs on this thread, and how far that spout could run
     * ahead of a consumer cut off from it.
     *
     * @param acked a spout of this thread emits with message ids and acking is on, so every tuple of the chain
     *     belongs to a tree that completes back on this thread
     * @param maxInFlight the trees the thread's spouts may have pending (max spout pending times their tasks); 0 when
     *     unset (Storm's default: no limit)
     * @param queueTuples the tuples a consumer's queue holds, the most that could wait in it
     */
    public record Tracking(boolean acked, long maxInFlight, long queueTuples) {
        /** No acked spout on the thread. */
        public static final Tracking NONE = new Tracking(false, 0, 0);

        /** The tuples that may wait ahead of a tuple in a cut-off consumer's queue. */
        long mayWait() {
            return maxInFlight > 0 ? Math.min(maxInFlight, queueTuples) : queueTuples;
        }
    }

    /**
     * A decision to cut.
     *
     * @param point index in the window's points of the task that moves
     * @param gain expected speed-up of the executor's work (1 for the static rule, which does not predict it)
     * @param reason why, for the log
     */
    public record Cut(int point, double gain, String reason) {
    }

    private PlacementPolicy() {
    }

    /**
     * The cut to make in {@code w}, or null. {@code busyThreads} counts the topology's executors that were busy all
     * through their last window, this one included; {@code cores} the machine's cores.
     */
    public static Cut decide(Mode mode, Window w, int busyThreads, int cores) {
        if (!w.busy() || w.starved() || busyThreads >= cores) {
            return null;
        }
        return mode.costBased() ? costCut(w, mode.minGain()) : shareCut(w);
    }

    /**
     * The complete latency a cut at {@code p} would add to every tree, in ns, or 0 when the chain is not acked: the
     * tuples that may wait in the cut-off consumer's queue times its time a tuple there.
     */
    public static long addedLatencyNanos(Window w, Point p) {
        if (!w.tracking().acked() || p.tuples() <= 0 || p.spentNanos() < 0) {
            return 0;
        }
        long consumerPerTuple = p.spentNanos() / p.tuples() + CONSUMER_HANDOVER_NANOS + ACKED_CONSUMER_NANOS;
        return w.tracking().mayWait() * consumerPerTuple;
    }

    private static Cut costCut(Window w, double minGain) {
        long busy = w.busyNanos();
        int best = -1;
        double bestGain = 0;
        long bestProducer = 0;
        long bestConsumer = 0;
        for (int i = 0; i < w.points().size(); i++) {
            Point p = w.points().get(i);
            if (p.tuples() <= 0 || p.spentNanos() < 0) {
                continue;
            }
            long spent = Math.min(p.spentNanos(), busy);
            if (addedLatencyNanos(w, p) > LATENCY_OBJECTIVE_NANOS) {
                continue; // the latency objective rules this cut out, whatever it would gain
            }
            long acked = w.tracking().acked() ? 1 : 0;
            long producer = busy - spent + p.tuples() * (PRODUCER_HANDOVER_NANOS + acked * ACKED_PRODUCER_NANOS);
            long consumer = spent + p.tuples() * (CONSUMER_HANDOVER_NANOS + acked * ACKED_CONSUMER_NANOS);
            double gain = sureGain(busy, producer, consumer, p.tuples());
            if (gain > bestGain) {
                best = i;
                bestGain = gain;
                bestProducer = producer;
                bestConsumer = consumer;
            }
        }
        if (best < 0 || bestGain < minGain) {
            return null;
        }
        Point p = w.points().get(best);
        return new Cut(best, bestGain, String.format(Locale.ROOT,
            "its thread was busy %d ms of %d ms (waiting for a core: %s); %s took %d ms over %d tuples (%d ns each); "
                + "cut there, the two threads "
                + "would take %d and %d ms: %.2fx, %.2fx if its time is %d ns a tuple off; and a core was free",
            (w.elapsedNanos() - w.parkedNanos()) / 1_000_000, w.elapsedNanos() / 1_000_000,
            w.waitNanos() < 0 ? "unknown" : w.waitNanos() / 1_000_000 + " ms", p.name(), p.spentNanos() / 1_000_000,
            p.tuples(),
            p.spentNanos() / p.tuples(), bestProducer / 1_000_000, bestConsumer / 1_000_000,
            (double) busy / Math.max(1, Math.max(bestProducer, bestConsumer)), bestGain, SAMPLE_ERROR_NANOS));
    }

    /**
     * The speed-up a cut promises when the moved task's sampled time is {@link #SAMPLE_ERROR_NANOS} a tuple off in the
     * direction that hurts: the slower of the two threads ({@code producer}, {@code consumer}: their time for the
     * window's {@code busy} work) takes that much longer for each of the {@code tuples} handed over.
     */
    static double sureGain(long busy, long producer, long consumer, long tuples) {
        return (double) busy / Math.max(1, Math.max(producer, consumer) + tuples * SAMPLE_ERROR_NANOS);
    }

    private static Cut shareCut(Window w) {
        int best = -1;
        double bestShare = 0;
        double bestDistance = Double.MAX_VALUE;
        for (int i = 0; i < w.points().size(); i++) {
            Point p = w.points().get(i);
            if (p.tuples() <= 0 || p.spentNanos() < 0 || p.spentNanos() / p.tuples() < MIN_STATIC_EXECUTE_NANOS) {
                continue;
            }
            double share = (double) p.spentNanos() / w.elapsedNanos();
            if (share >= MIN_STATIC_SHARE && share <= MAX_STATIC_SHARE && Math.abs(share - 0.5) < bestDistance) {
                best = i;
                bestShare = share;
                bestDistance = Math.abs(share - 0.5);
            }
        }
        if (best < 0) {
            return null;
        }
        return new Cut(best, 1, "it took " + Math.round(100 * bestShare) + "% of a thread that was never idle, "
            + "and a core was free");
    }
}
