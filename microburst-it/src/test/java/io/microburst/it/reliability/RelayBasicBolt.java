package io.microburst.it.reliability;

import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;

/** Passes each input on through a BasicBolt, relying on Storm's automatic anchoring and acking. */
public final class RelayBasicBolt extends BaseBasicBolt {
    private final Fields fields;

    public RelayBasicBolt(String... fields) {
        this.fields = new Fields(fields);
    }

    @Override
    public void execute(Tuple input, BasicOutputCollector collector) {
        collector.emit(input.getValues());
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(fields);
    }
}
