package io.microburst;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Emits one tuple every 10 ms and nothing on the polls in between, as a spout over a slow source does; counts its polls
 * and its emits (for one running instance at a time).
 */
public class PacedSpout extends BaseRichSpout {
    public static final AtomicInteger POLLS = new AtomicInteger();
    public static final AtomicInteger EMITS = new AtomicInteger();
    private transient SpoutOutputCollector collector;
    private transient long next;

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.next = System.nanoTime();
    }

    @Override
    public void nextTuple() {
        POLLS.incrementAndGet();
        long now = System.nanoTime();
        if (now - next >= 0) {
            next = now + 10_000_000;
            EMITS.incrementAndGet();
            collector.emit(new Values(now));
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("t"));
    }
}
