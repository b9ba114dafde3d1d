package io.microburst.bench.topology.scoring;

import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Emits {@code (sensor, value)} readings of {@link Readings} seeded with the task's index, unanchored; after
 * {@code limit} readings (0: no limit) it emits nothing more. Task thread only.
 */
public final class ReadingSpout extends BaseRichSpout {
    private static final long serialVersionUID = 1L;
    private final long limit;
    private transient SpoutOutputCollector collector;
    private transient Readings readings;
    private transient long emitted;

    public ReadingSpout(long limit) {
        this.limit = limit;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.readings = new Readings(context.getThisTaskIndex());
    }

    @Override
    public void nextTuple() {
        if (limit > 0 && emitted == limit) {
            return;
        }
        emitted++;
        readings.next();
        collector.emit(new Values(readings.sensor(), readings.value()));
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("sensor", "value"));
    }
}
