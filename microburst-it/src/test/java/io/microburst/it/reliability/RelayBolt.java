package io.microburst.it.reliability;

import java.util.Arrays;
import java.util.List;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;

/** Passes each input on unchanged, anchored to it once or (self-anchoring) twice, then acks it. */
public final class RelayBolt extends RecordingBolt {
    private final boolean anchorTwice;
    private final Fields fields;

    public RelayBolt(String runId, boolean anchorTwice, String... fields) {
        super(runId);
        this.anchorTwice = anchorTwice;
        this.fields = new Fields(fields);
    }

    @Override
    protected void process(Tuple input) {
        List<Tuple> anchors = anchorTwice ? Arrays.asList(input, input) : List.of(input);
        collector.emit(anchors, input.getValues());
        collector.ack(input);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(fields);
    }
}
