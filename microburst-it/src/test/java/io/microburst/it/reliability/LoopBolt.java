package io.microburst.it.reliability;

import java.util.concurrent.locks.LockSupport;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * One side of a two-bolt loop. Takes (seq) from the spout or (seq, hops) from the other side; sends (seq, hops + 1)
 * round the loop, anchored, until a tuple has made laps hops, and acks. Optionally slow.
 */
public final class LoopBolt extends RecordingBolt {
    /** Output field: how many times the tuple has crossed the loop. */
    public static final String HOPS = "hops";

    private final int laps;
    private final long nanosPerTuple;

    public LoopBolt(String runId, int laps, long nanosPerTuple) {
        super(runId);
        this.laps = laps;
        this.nanosPerTuple = nanosPerTuple;
    }

    @Override
    protected void process(Tuple input) {
        if (nanosPerTuple > 0) {
            LockSupport.parkNanos(nanosPerTuple);
        }
        int hops = input.size() > 1 ? input.getInteger(1) : 0;
        if (hops < laps) {
            collector.emit(input, new Values(seqOf(input), hops + 1));
        }
        collector.ack(input);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields(SequenceSpout.SEQ, HOPS));
    }
}
