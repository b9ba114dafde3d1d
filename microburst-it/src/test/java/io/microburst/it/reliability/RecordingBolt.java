package io.microburst.it.reliability;

import java.util.Map;
import org.apache.storm.Constants;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;

/**
 * Base of this package's bolts: finds the run's record, counts prepare, execute and cleanup per component
 * ("prepare:fan", "received:fan", "cleanup:fan"), and hands tick tuples to {@link #tick()}.
 * Bolts emit the field "seq" unless they override {@link #declareOutputFields}.
 */
abstract class RecordingBolt extends BaseRichBolt {
    private final String runId;
    protected transient OutputCollector collector;
    protected transient RunRecord run;
    protected transient String component;

    RecordingBolt(String runId) {
        this.runId = runId;
    }

    @Override
    public final void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.run = Runs.get(runId);
        this.component = context.getThisComponentId();
        run.increment("prepare:" + component);
        prepared(context);
    }

    @Override
    public final void execute(Tuple input) {
        if (Constants.SYSTEM_COMPONENT_ID.equals(input.getSourceComponent())
                && Constants.SYSTEM_TICK_STREAM_ID.equals(input.getSourceStreamId())) {
            tick();
            return;
        }
        run.increment("received:" + component);
        process(input);
    }

    /** The work for one data tuple. */
    protected abstract void process(Tuple input);

    protected void prepared(TopologyContext context) {
    }

    protected void tick() {
    }

    protected static long seqOf(Tuple input) {
        return input.getLong(0);
    }

    @Override
    public void cleanup() {
        run.increment("cleanup:" + component);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields(SequenceSpout.SEQ));
    }
}
