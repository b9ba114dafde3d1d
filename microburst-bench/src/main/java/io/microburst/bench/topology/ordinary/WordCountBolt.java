package io.microburst.bench.topology.ordinary;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.probe.TaskCounter;
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
 * Counts words in a {@code HashMap<String, Integer>} with {@code merge} and emits {@code (word, count)} on its default
 * stream, which no component subscribes to in the workload, as many WordCount examples do. Task thread only.
 */
public final class WordCountBolt extends BaseBasicBolt {
    private static final long serialVersionUID = 1L;
    private transient Map<String, Integer> counts;
    private transient TaskCounter received;

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context) {
        this.counts = new HashMap<>();
        this.received = Probes.newTaskCounter();
    }

    @Override
    public void execute(Tuple input, BasicOutputCollector collector) {
        String word = input.getString(0);
        Integer count = counts.merge(word, 1, Integer::sum);
        received.increment();
        collector.emit(new Values(word, count));
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("word", "count"));
    }
}
