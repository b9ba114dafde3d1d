package io.microburst.bench.topology.email;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;

/** The single global aggregate: the latest rate of every metrics task and their sum. Task thread only. */
public final class GlobalMetricsBolt extends BaseRichBolt {
    private static final long serialVersionUID = 1L;
    private transient OutputCollector collector;
    private transient Map<Integer, Double> latestRates;
    private transient double globalRate;

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.latestRates = new HashMap<>();
    }

    @Override
    public void execute(Tuple input) {
        latestRates.put(input.getInteger(0), input.getDouble(1));
        double sum = 0;
        for (double rate : latestRates.values()) {
            sum += rate;
        }
        globalRate = sum;
        collector.ack(input);
    }

    /** Sum of the latest per-task rates, emails per second. */
    double globalRate() {
        return globalRate;
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        // the aggregate stays in the task
    }
}
