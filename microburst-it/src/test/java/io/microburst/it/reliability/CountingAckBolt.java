package io.microburst.it.reliability;

import org.apache.storm.tuple.Tuple;

/** A sink that acks every tuple without recording sequence numbers (for branches that see a number many times). */
public final class CountingAckBolt extends RecordingBolt {
    public CountingAckBolt(String runId) {
        super(runId);
    }

    @Override
    protected void process(Tuple input) {
        collector.ack(input);
    }
}
