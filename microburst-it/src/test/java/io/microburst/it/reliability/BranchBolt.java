package io.microburst.it.reliability;

import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/** Emits a fixed number of children per input, each anchored to it, then acks the input. */
public final class BranchBolt extends RecordingBolt {
    private final int children;

    public BranchBolt(String runId, int children) {
        super(runId);
        this.children = children;
    }

    @Override
    protected void process(Tuple input) {
        for (int i = 0; i < children; i++) {
            collector.emit(input, new Values(seqOf(input)));
        }
        collector.ack(input);
    }
}
