package io.microburst.bench.topology;

import io.microburst.bench.probe.Probes;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.SingleWriterRecorder;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Cycles over the lines of {@link TextCorpus}, one sentence per call. Acked mode carries the emit time as message id and
 * records complete latency in {@link #ack}. Task thread only.
 */
public final class SentenceSpout extends BaseRichSpout {
    private static final long serialVersionUID = 1L;
    private final boolean acked;
    private transient SpoutOutputCollector collector;
    private transient List<String> sentences;
    private transient int next;
    private transient SingleWriterRecorder completeLatency;

    public SentenceSpout(boolean acked) {
        this.acked = acked;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.sentences = TextCorpus.lines();
        // Tasks start at different lines so parallel spouts do not emit in lockstep.
        this.next = context.getThisTaskIndex() % sentences.size();
        if (acked) {
            completeLatency = Probes.newLatencyRecorder();
        }
    }

    @Override
    public void nextTuple() {
        String sentence = sentences.get(next);
        next = next + 1 == sentences.size() ? 0 : next + 1;
        if (acked) {
            collector.emit(new Values(sentence), System.nanoTime());
        } else {
            collector.emit(new Values(sentence));
        }
    }

    @Override
    public void ack(Object msgId) {
        if (completeLatency != null) {
            Probes.record(completeLatency, System.nanoTime() - (Long) msgId);
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("sentence"));
    }
}
