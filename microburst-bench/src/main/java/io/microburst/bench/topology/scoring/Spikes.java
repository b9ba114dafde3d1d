package io.microburst.bench.topology.scoring;

import java.util.concurrent.atomic.LongAdder;

/**
 * Spikes that reached a sink in this JVM, for checking that two runtimes find the same ones (the throughput itself is
 * counted at the threshold, which sees every reading). Any thread.
 */
public final class Spikes {
    private static final LongAdder COUNT = new LongAdder();

    private Spikes() {
    }

    /** Records one spike. */
    public static void add() {
        COUNT.increment();
    }

    /** Spikes recorded so far. */
    public static long count() {
        return COUNT.sum();
    }

    /** Forgets the spikes recorded so far (tests). */
    public static void reset() {
        COUNT.reset();
    }
}
