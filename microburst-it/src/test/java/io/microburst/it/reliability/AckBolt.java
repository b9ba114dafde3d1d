package io.microburst.it.reliability;

import org.apache.storm.tuple.Tuple;

/** A sink that acks every tuple and records each sequence number it sees (for duplicate and loss counts). */
public final class AckBolt extends RecordingBolt {
    public AckBolt(String runId) {
        super(runId);
    }

    @Override
    protected void process(Tuple input) {
        run.recordDelivery(seqOf(input));
        collector.ack(input);
    }
}
