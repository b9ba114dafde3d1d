package io.microburst.bench.topology;

import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * A bolt with a slow call after its emit (an external call, say): each execute emits a tuple stamped with
 * {@link System#nanoTime()}, anchored to its input, then sleeps for a fixed time and acks. Task thread only.
 */
public final class SleepAfterEmitBolt extends BaseRichBolt {
    private static final long serialVersionUID = 1L;
    private final long sleepMillis;
    private transient OutputCollector collector;

    public SleepAfterEmitBolt(long sleepMillis) {
        this.sleepMillis = sleepMillis;
    }

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
    }

    @Override
    public void execute(Tuple input) {
        collector.emit(input, new Values(System.nanoTime()));
        sleep(sleepMillis);
        collector.ack(input);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("stamp"));
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
