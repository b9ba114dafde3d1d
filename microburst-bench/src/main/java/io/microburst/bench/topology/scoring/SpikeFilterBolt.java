package io.microburst.bench.topology.scoring;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.probe.TaskCounter;
import java.util.Map;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * The second stage: counts every scored reading (the workload's throughput) and passes on the spikes of
 * {@link SpikeRule}. Task thread only.
 */
public final class SpikeFilterBolt extends BaseBasicBolt {
    private static final long serialVersionUID = 1L;
    private transient TaskCounter scored;

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context) {
        this.scored = Probes.newTaskCounter();
    }

    @Override
    public void execute(Tuple input, BasicOutputCollector collector) {
        scored.increment();
        double value = input.getDouble(1);
        double average = input.getDouble(2);
        if (SpikeRule.isSpike(value, average)) {
            collector.emit(new Values(input.getString(0), value, average));
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("sensor", "value", "average"));
    }
}
