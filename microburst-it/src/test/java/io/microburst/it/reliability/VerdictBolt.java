package io.microburst.it.reliability;

import org.apache.storm.tuple.Tuple;

/**
 * Acks every tuple except those whose sequence number is {@code remainder} modulo {@code modulus}: those it either
 * drops silently (never acks nor fails, so only the message timeout can settle them) or fails explicitly.
 */
public final class VerdictBolt extends RecordingBolt {
    /** What happens to the selected tuples. */
    public enum Verdict { DROP, FAIL }

    private final Verdict verdict;
    private final long modulus;
    private final long remainder;

    public VerdictBolt(String runId, Verdict verdict, long modulus, long remainder) {
        super(runId);
        this.verdict = verdict;
        this.modulus = modulus;
        this.remainder = remainder;
    }

    static boolean selected(long seq, long modulus, long remainder) {
        return Math.floorMod(seq, modulus) == remainder;
    }

    @Override
    protected void process(Tuple input) {
        if (!selected(seqOf(input), modulus, remainder)) {
            collector.ack(input);
        } else if (verdict == Verdict.FAIL) {
            collector.fail(input);
        }
    }
}
