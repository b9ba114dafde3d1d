package io.microburst.it.reliability;

import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/** Emits each input twice, anchored to it both times, once on stream "now" and once on stream "later"; acks it. */
public final class TwoStreamBolt extends RecordingBolt {
    public static final String NOW = "now";
    public static final String LATER = "later";

    public TwoStreamBolt(String runId) {
        super(runId);
    }

    @Override
    protected void process(Tuple input) {
        collector.emit(NOW, input, new Values(seqOf(input)));
        collector.emit(LATER, input, new Values(seqOf(input)));
        collector.ack(input);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declareStream(NOW, new Fields(SequenceSpout.SEQ));
        declarer.declareStream(LATER, new Fields(SequenceSpout.SEQ));
    }
}
