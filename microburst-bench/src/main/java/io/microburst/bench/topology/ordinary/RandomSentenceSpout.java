package io.microburst.bench.topology.ordinary;

import io.microburst.bench.topology.TextCorpus;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/** Emits a sentence of the corpus picked with {@link Random} on every call, unanchored. Task thread only. */
public final class RandomSentenceSpout extends BaseRichSpout {
    private static final long serialVersionUID = 1L;
    private transient SpoutOutputCollector collector;
    private transient List<String> sentences;
    private transient Random random;

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.sentences = TextCorpus.lines();
        this.random = new Random();
    }

    @Override
    public void nextTuple() {
        collector.emit(new Values(sentences.get(random.nextInt(sentences.size()))));
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("sentence"));
    }
}
