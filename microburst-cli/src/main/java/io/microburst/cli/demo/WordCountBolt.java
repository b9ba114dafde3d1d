package io.microburst.cli.demo;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;

/**
 * Counts each {@code word} it receives (fields grouping makes every word land on one task) and marks the
 * {@link FirstTupleClock} on its first tuple. The sink of the demo: emits nothing.
 */
public final class WordCountBolt extends BaseRichBolt {
    private static final long serialVersionUID = 1L;

    private transient OutputCollector collector;
    private transient Map<String, Long> counts;

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.counts = new HashMap<>();
    }

    @Override
    public void execute(Tuple input) {
        if (counts.isEmpty()) {
            FirstTupleClock.mark();
        }
        counts.merge(input.getString(0), 1L, Long::sum);
        collector.ack(input);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        // a sink
    }
}
