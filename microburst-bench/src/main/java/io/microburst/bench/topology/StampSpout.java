package io.microburst.bench.topology;

import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Low-load latency source: every millisecond emits a burst of tuples, each stamped with {@link System#nanoTime()} just
 * before its emit. Emits nothing when no burst is due, which lets the runtime idle as it would at low load. Task thread only.
 */
public final class StampSpout extends BaseRichSpout {
    private static final long serialVersionUID = 1L;
    private final int tuplesPerMs;
    private transient SpoutOutputCollector collector;
    private transient Pacer pacer;

    public StampSpout(int tuplesPerMs) {
        this.tuplesPerMs = tuplesPerMs;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.pacer = new Pacer(tuplesPerMs);
    }

    @Override
    public void nextTuple() {
        int burst = pacer.due(System.nanoTime());
        for (int i = 0; i < burst; i++) {
            collector.emit(new Values(System.nanoTime()));
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("stamp"));
    }
}
