package io.microburst.it.reliability;

import java.util.Arrays;
import java.util.List;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * Emits k children (seq, k) per input, all anchored to that input (so the same anchor is emitted to several times),
 * then acks the input. k lies in 1..maxFan and depends only on (seq, seed), so a downstream join knows how many
 * children to expect. With anchorTwice each child lists its input twice among its anchors.
 */
public final class FanOutBolt extends RecordingBolt {
    /** Output field: how many children the input had. */
    public static final String FAN = "fan";

    private final int maxFan;
    private final long seed;
    private final boolean anchorTwice;

    public FanOutBolt(String runId, int maxFan, long seed, boolean anchorTwice) {
        super(runId);
        this.maxFan = maxFan;
        this.seed = seed;
        this.anchorTwice = anchorTwice;
    }

    static int fanOf(long seq, long seed, int maxFan) {
        long mixed = (seq ^ seed) * 0x9E3779B97F4A7C15L;
        return 1 + (int) Math.floorMod(mixed >>> 17, (long) maxFan);
    }

    @Override
    protected void process(Tuple input) {
        long seq = seqOf(input);
        int fan = fanOf(seq, seed, maxFan);
        List<Tuple> anchors = anchorTwice ? Arrays.asList(input, input) : List.of(input);
        for (int i = 0; i < fan; i++) {
            collector.emit(anchors, new Values(seq, fan));
        }
        collector.ack(input);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields(SequenceSpout.SEQ, FAN));
    }
}
