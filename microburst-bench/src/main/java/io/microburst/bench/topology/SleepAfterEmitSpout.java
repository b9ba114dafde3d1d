package io.microburst.bench.topology;

import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * The shape of storm-perf's LowThroughputTopo spout: each nextTuple emits one tuple stamped with {@link System#nanoTime()}
 * (with a message id) and then sleeps, inside the call, for a fixed time. Task thread only.
 */
public final class SleepAfterEmitSpout extends BaseRichSpout {
    private static final long serialVersionUID = 1L;
    private final long sleepMillis;
    private transient SpoutOutputCollector collector;
    private transient long next;

    public SleepAfterEmitSpout(long sleepMillis) {
        this.sleepMillis = sleepMillis;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
    }

    @Override
    public void nextTuple() {
        collector.emit(new Values(System.nanoTime()), next++);
        SleepAfterEmitBolt.sleep(sleepMillis);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("stamp"));
    }
}
