package io.microburst.it.support;

import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * An endless spout that emits ("n": 0, 1, 2...) at most once per interval, so a test can watch a topology run without flooding it.
 * Records open, activate, deactivate and close as {@link LifecycleEvent}s.
 */
public class PacedSpout extends BaseRichSpout {
    private final String scope;
    private final long intervalNanos;
    private transient SpoutOutputCollector collector;
    private transient TopologyContext context;
    private transient long nextEmitNanos;
    private transient long counter;

    public PacedSpout(String scope, long intervalMillis) {
        this.scope = scope;
        this.intervalNanos = intervalMillis * 1_000_000L;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.context = context;
        this.collector = collector;
        this.nextEmitNanos = System.nanoTime();
        lifecycle("open");
    }

    @Override
    public void activate() {
        lifecycle("activate");
    }

    @Override
    public void deactivate() {
        lifecycle("deactivate");
    }

    @Override
    public void close() {
        lifecycle("close");
    }

    @Override
    public void nextTuple() {
        long now = System.nanoTime();
        if (now - nextEmitNanos < 0) {
            return;
        }
        nextEmitNanos = now + intervalNanos;
        collector.emit(new Values(counter++));
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("n"));
    }

    private void lifecycle(String callback) {
        Recorder.record(scope, new LifecycleEvent(context.getThisComponentId(), context.getThisTaskId(), callback,
            System.identityHashCode(this)));
    }
}
