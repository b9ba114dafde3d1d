package io.microburst.bench.topology;

import java.util.Map;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * One stage of the multi-hop chain, written as users write them: a basic bolt that keeps a little state per key (a
 * running sum, as a toll or speed bolt keeps one) and emits a new tuple with the key, a new value and the source's stamp
 * unchanged; a key on the source's control stream resets that key's sum. Task thread only.
 */
public final class StageBolt extends BaseBasicBolt {
    private static final long serialVersionUID = 1L;
    private final int stage;
    private transient long[] sums;

    public StageBolt(int stage) {
        this.stage = stage;
    }

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context) {
        sums = new long[RateSpout.KEYS];
    }

    @Override
    public void execute(Tuple input, BasicOutputCollector collector) {
        int key = input.getInteger(0);
        if (RateSpout.CONTROL.equals(input.getSourceStreamId())) {
            sums[key] = 0;
            return;
        }
        long value = input.getLong(1) * 31 + stage;
        long sum = sums[key] += value;
        collector.emit(new Values(key, sum, input.getLong(2)));
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("key", "value", "stamp"));
    }
}
