package io.microburst.it.reliability;

import org.apache.storm.tuple.Tuple;

/** Holds each odd-numbered arrival and acks it together with the next one. */
public final class PairAckBolt extends RecordingBolt {
    private transient Tuple waiting;

    public PairAckBolt(String runId) {
        super(runId);
    }

    @Override
    protected void process(Tuple input) {
        if (waiting == null) {
            waiting = input;
            return;
        }
        collector.ack(waiting);
        collector.ack(input);
        waiting = null;
    }
}
