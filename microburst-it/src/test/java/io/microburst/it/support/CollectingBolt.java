package io.microburst.it.support;

import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;

/**
 * A sink: records every tuple it receives (tick tuples included) as a {@link Received} in its scope, records prepare and cleanup
 * as {@link LifecycleEvent}s, and acks each tuple so reliable spouts see their trees complete.
 */
public class CollectingBolt extends BaseRichBolt {
    private final String scope;
    private transient OutputCollector collector;
    private transient TopologyContext context;

    public CollectingBolt(String scope) {
        this.scope = scope;
    }

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
        this.context = context;
        this.collector = collector;
        Recorder.record(scope, new LifecycleEvent(context.getThisComponentId(), context.getThisTaskId(), "prepare",
            System.identityHashCode(this)));
    }

    @Override
    public void execute(Tuple input) {
        Recorder.record(scope, new Received(context.getThisComponentId(), context.getThisTaskId(), input.getSourceComponent(),
            input.getSourceTask(), input.getSourceStreamId(), input.getValues()));
        collector.ack(input);
    }

    @Override
    public void cleanup() {
        Recorder.record(scope, new LifecycleEvent(context.getThisComponentId(), context.getThisTaskId(), "cleanup",
            System.identityHashCode(this)));
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        // a sink declares no stream
    }

    protected String scope() {
        return scope;
    }
}
