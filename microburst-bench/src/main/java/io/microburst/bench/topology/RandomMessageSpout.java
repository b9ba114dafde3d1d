package io.microburst.bench.topology;

import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/** Emits one new 100-digit random message per call (RollingSort). Task thread only. */
public final class RandomMessageSpout extends BaseRichSpout {
    private static final long serialVersionUID = 1L;
    private transient SpoutOutputCollector collector;
    private transient RandomDigits digits;

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.digits = new RandomDigits(context.getThisTaskId());
    }

    @Override
    public void nextTuple() {
        collector.emit(new Values(digits.next()));
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("message"));
    }
}
