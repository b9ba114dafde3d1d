package io.microburst.bench.topology.ordinary;

import java.util.Map;
import java.util.Random;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/** RollingSort's spout as users write it: each message is 100 digits drawn from {@link Random}. Task thread only. */
public final class RandomDigitsSpout extends BaseRichSpout {
    private static final long serialVersionUID = 1L;
    /** Digits per message, as in the thesis' RollingSort. */
    public static final int MESSAGE_LENGTH = 100;
    private transient SpoutOutputCollector collector;
    private transient Random random;

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.random = new Random();
    }

    @Override
    public void nextTuple() {
        StringBuilder message = new StringBuilder(MESSAGE_LENGTH);
        for (int i = 0; i < MESSAGE_LENGTH; i++) {
            message.append(random.nextInt(10));
        }
        collector.emit(new Values(message.toString()));
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("message"));
    }
}
