package io.microburst.bench.topology.scoring;

/** The threshold: a reading is a spike when it is more than {@value #THRESHOLD} of its average away from it. Stateless. */
public final class SpikeRule {
    /** Relative distance from the average beyond which a reading is a spike. */
    public static final double THRESHOLD = 0.25;

    private SpikeRule() {
    }

    /** Whether {@code value} is a spike against {@code average}. */
    public static boolean isSpike(double value, double average) {
        return Math.abs(value - average) > THRESHOLD * average;
    }
}
