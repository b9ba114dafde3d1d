package io.microburst.bench.topology.scoring;

import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Tuple;

/** The sink: records each spike in {@link Spikes}. Task thread only. */
public final class SpikeSinkBolt extends BaseBasicBolt {
    private static final long serialVersionUID = 1L;

    @Override
    public void execute(Tuple input, BasicOutputCollector collector) {
        Spikes.add();
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        // a sink
    }
}
