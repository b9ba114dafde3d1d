package io.microburst.runtime.task;

import io.microburst.reliability.TupleTree;

/**
 * How often a task times what it runs: Storm's {@code topology.stats.sample.rate} as a period, and the rule that
 * stretches that period while samples come fast. Pure functions; any thread. The period in use is the task's own
 * field (read per tuple; see {@link TaskRunner#sampled}).
 */
final class Sampling {
    /**
     * Samples closer together than this stretch the sampling period (see {@link #adaptPeriod}): a clock read costs
     * 20-40 ns, as much as a whole fused delivery, so a task that runs millions of tuples a second is timed at most
     * about 50,000 times a second, which still gives its mean latencies thousands of samples a second.
     */
    static final long MIN_SAMPLE_GAP_NANOS = 20_000;
    /** The furthest the period stretches: this many times the configured one. */
    static final int MAX_SAMPLE_STRETCH = 64;

    private Sampling() {
    }

    /** Storm's sampling rate as a period: 0.05 is one in 20; a rate of 0 or less never samples. */
    static int sampleEvery(Object rate) {
        double r = rate instanceof Number n ? n.doubleValue() : 0.05;
        if (!(r > 0)) {
            return Integer.MAX_VALUE;
        }
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round(1 / r)));
    }

    /**
     * The next sampling period, given the current one, the configured one and the time since the last sample. Samples
     * closer than {@link #MIN_SAMPLE_GAP_NANOS} double the period, up to {@link #MAX_SAMPLE_STRETCH} times the configured
     * one; samples more than four times that far apart halve it, down to the configured one. A rate of 1 (every tuple
     * timed) is taken as asked and never stretched. Latencies are reported as means, which sampling less often does not
     * bias; counts are exact whatever the period.
     */
    static int adaptPeriod(int period, int configured, long gapNanos) {
        if (configured <= 1) {
            return configured;
        }
        if (gapNanos < MIN_SAMPLE_GAP_NANOS) {
            long max = (long) configured * MAX_SAMPLE_STRETCH;
            return (int) Math.min(Math.min(max, Integer.MAX_VALUE), (long) period * 2);
        }
        if (gapNanos > 4 * MIN_SAMPLE_GAP_NANOS && period > configured) {
            return Math.max(configured, period / 2);
        }
        return period;
    }

    /**
     * Whether a task whose sample is due ({@code counter} tuples since its last, {@code period} its period) takes it
     * now, {@code outerTiming} when a task that called it fused is being timed: not inside another sample, whose time
     * would then count this one's clock reads and bookkeeping, unless it has waited a whole period more (at a rate of 1
     * the outer task times every tuple). Deferred, it takes the next tuple its caller does not time. Pure function.
     */
    static boolean takesSample(boolean outerTiming, int counter, int period) {
        return !outerTiming || counter - period >= period;
    }

    /** Emit to now for a sampled tree; -1 for the others. Its spout's thread. */
    static long sinceEmit(TupleTree tree) {
        long emitted = tree.emitNanos();
        return emitted == 0 ? -1 : Math.max(0, System.nanoTime() - emitted);
    }
}
