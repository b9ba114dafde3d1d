package io.microburst.bench.topology.scoring;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * The first stage, fields-grouped on the sensor: keeps a {@link MovingAverage} per sensor in a {@code HashMap} and emits
 * {@code (sensor, value, average)}. Task thread only.
 */
public final class MovingAverageBolt extends BaseBasicBolt {
    private static final long serialVersionUID = 1L;
    private transient Map<String, MovingAverage> averages;

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context) {
        this.averages = new HashMap<>();
    }

    @Override
    public void execute(Tuple input, BasicOutputCollector collector) {
        String sensor = input.getString(0);
        double value = input.getDouble(1);
        double average = averages.computeIfAbsent(sensor, s -> new MovingAverage()).add(value);
        collector.emit(new Values(sensor, value, average));
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("sensor", "value", "average"));
    }
}
