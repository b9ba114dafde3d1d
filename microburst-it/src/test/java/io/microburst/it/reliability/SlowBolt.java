package io.microburst.it.reliability;

import java.util.concurrent.locks.LockSupport;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/** Takes at least nanosPerTuple per tuple (parked, so it leaves the CPU to others), optionally relays it, then acks. */
public final class SlowBolt extends RecordingBolt {
    private final long nanosPerTuple;
    private final boolean relay;

    public SlowBolt(String runId, long nanosPerTuple, boolean relay) {
        super(runId);
        this.nanosPerTuple = nanosPerTuple;
        this.relay = relay;
    }

    @Override
    protected void process(Tuple input) {
        long until = System.nanoTime() + nanosPerTuple;
        for (long left = nanosPerTuple; left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
        if (relay) {
            collector.emit(input, new Values(seqOf(input)));
        }
        collector.ack(input);
    }
}
