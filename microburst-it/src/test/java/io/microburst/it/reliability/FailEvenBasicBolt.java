package io.microburst.it.reliability;

import java.util.Map;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.FailedException;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;

/** A BasicBolt that throws FailedException on even sequence numbers (so its input fails) and passes odd ones on. */
public final class FailEvenBasicBolt extends BaseBasicBolt {
    private final String runId;
    private transient RunRecord run;
    private transient String component;

    public FailEvenBasicBolt(String runId) {
        this.runId = runId;
    }

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context) {
        run = Runs.get(runId);
        component = context.getThisComponentId();
    }

    @Override
    public void execute(Tuple input, BasicOutputCollector collector) {
        run.increment("received:" + component);
        if (input.getLong(0) % 2 == 0) {
            throw new FailedException("even sequence number " + input.getLong(0));
        }
        collector.emit(input.getValues());
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields(SequenceSpout.SEQ));
    }
}
