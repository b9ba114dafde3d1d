package io.microburst.plan;

import java.util.Locale;

/**
 * Whether an adaptive decision (a cut of a fused chain, an automatic parallelism step) kept its promise, as a pure
 * function of the window measured before it and the same window measured after it. The component that applied the
 * decision measures and undoes; this decides.
 *
 * <p>The rule. A decision is kept when both hold:
 * <ul>
 *   <li><b>throughput</b>: the rate after is at least the rate before times {@code 1 + (promised - 1) / 2}, half the
 *       margin the policy promised, the promise counted at most at the policy's least gain (a cut, which needs 1.2x by
 *       default, must give at least 1.1x; a step that promised nothing, 1.0, must at least not lose); the estimates
 *       are optimistic by design (the hand-over is counted at its cheapest) and the windows are noisy, so half the
 *       margin is what a real gain still clears and a loss never does;</li>
 *   <li><b>latency</b>, for a topology whose spouts track trees: the mean complete latency after is at most twice the
 *       one before plus {@link #LATENCY_SLACK_NANOS}. A fast acked chain completes trees in 5-15 µs; a decision that
 *       lets tuples queue multiplies that by ten or more (52 µs p50, 600 µs p99 on the acked ConstSpout-to-NullBolt
 *       chain once cut), which this rejects while a doubling, or a few tens of microseconds, passes.</li>
 * </ul>
 * Otherwise the decision is undone, and not tried again for the topology until its load changes
 * ({@link #loadChanged}).
 *
 * <p>Threading: stateless; any thread.
 */
public final class DecisionCheck {
    /** The complete latency a decision may add on top of doubling it. */
    public static final long LATENCY_SLACK_NANOS = 20_000;
    /** A load counts as changed once its rate differs from the one a decision was undone at by this factor. */
    public static final double LOAD_CHANGE = 1.5;

    /**
     * A window of the topology (or of the part the decision touched), measured the same way before and after.
     *
     * @param tuplesPerSecond its throughput: tuples executed or emitted a second, whichever the caller measures both
     *     times
     * @param completeLatencyNanos mean complete latency of its trees, or a negative number when it tracks none
     */
    public record Outcome(double tuplesPerSecond, double completeLatencyNanos) {
        /** Whether the window tracked trees (its complete latency is known). */
        public boolean acked() {
            return completeLatencyNanos >= 0;
        }
    }

    /**
     * The verdict.
     *
     * @param keep whether the decision stands
     * @param reason the figures behind it, for the log and the topology's errors
     */
    public record Verdict(boolean keep, String reason) {
    }

    private DecisionCheck() {
    }

    /** Judges a decision that promised a speed-up of {@code promisedGain} (1 when it promised none). */
    public static Verdict judge(Outcome before, Outcome after, double promisedGain) {
        return judge(before, after, promisedGain, promisedGain);
    }

    /**
     * Judges a decision that promised {@code promisedGain} under a policy that takes decisions promising at least
     * {@code leastGain}: half the margin of the smaller of the two is needed. A cut promised 1.6x that gives 1.3x still
     * pays for its core as the policy's own bar asks; needing half of each cut's own promise undid some runs' cuts of
     * the suite's slow bolt (promised 1.49-1.63x, given 1.28-1.54x, needed 1.24-1.31x) and kept others, so the same
     * topology ended in two layouts.
     */
    public static Verdict judge(Outcome before, Outcome after, double promisedGain, double leastGain) {
        double need = 1 + (Math.max(1, Math.min(promisedGain, leastGain)) - 1) / 2;
        double gain = before.tuplesPerSecond() > 0 ? after.tuplesPerSecond() / before.tuplesPerSecond() : 1;
        String rates = String.format(Locale.ROOT, "throughput %.0f/s before, %.0f/s after: %.2fx (promised %.2fx, "
            + "needed %.2fx)", before.tuplesPerSecond(), after.tuplesPerSecond(), gain, promisedGain, need);
        if (before.tuplesPerSecond() > 0 && gain < need) {
            return new Verdict(false, rates + "; undone");
        }
        if (before.acked() && after.acked()) {
            double allowed = 2 * before.completeLatencyNanos() + LATENCY_SLACK_NANOS;
            String latency = String.format(Locale.ROOT, "; complete latency %.1f µs before, %.1f µs after (at most "
                + "%.1f µs)", before.completeLatencyNanos() / 1000, after.completeLatencyNanos() / 1000, allowed / 1000);
            if (after.completeLatencyNanos() > allowed) {
                return new Verdict(false, rates + latency + "; undone");
            }
            return new Verdict(true, rates + latency + "; kept");
        }
        return new Verdict(true, rates + "; kept");
    }

    /**
     * Whether a load of {@code rateNow} tuples a second differs materially from {@code rateAtUndo}, the one at which
     * the same decision was undone: by {@link #LOAD_CHANGE} or more either way.
     */
    public static boolean loadChanged(double rateAtUndo, double rateNow) {
        if (rateAtUndo <= 0 || rateNow <= 0) {
            return rateAtUndo != rateNow;
        }
        double ratio = rateNow / rateAtUndo;
        return ratio >= LOAD_CHANGE || ratio <= 1 / LOAD_CHANGE;
    }
}
