package io.microburst.it.reliability;

import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/** Emits burst tuples anchored to each input, then acks it: a bolt whose output dwarfs its input. */
public final class BurstBolt extends RecordingBolt {
    private final int burst;

    public BurstBolt(String runId, int burst) {
        super(runId);
        this.burst = burst;
    }

    @Override
    protected void process(Tuple input) {
        long seq = seqOf(input);
        for (int i = 0; i < burst; i++) {
            collector.emit(input, new Values(seq));
            run.increment("burst emitted");
        }
        collector.ack(input);
    }
}
