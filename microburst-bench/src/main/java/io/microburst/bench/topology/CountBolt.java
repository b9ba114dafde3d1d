package io.microburst.bench.topology;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.probe.TaskCounter;
import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;

/** The last WordCount component: keeps a count per word (fields-grouped), counts and acks each word. Task thread only. */
public final class CountBolt extends BaseRichBolt {
    private static final long serialVersionUID = 1L;
    private transient OutputCollector collector;
    private transient WordCounts counts;
    private transient TaskCounter received;

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.counts = new WordCounts();
        this.received = Probes.newTaskCounter();
    }

    @Override
    public void execute(Tuple input) {
        counts.add(input.getString(0));
        received.increment();
        collector.ack(input);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        // the counts stay in the task, as in the thesis' WordCount
    }
}
