package io.microburst.it.reliability;

import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Emits exactly the ids the test feeds through {@link RunRecord#feed}, one per nextTuple call, so a scenario can
 * step a topology and look at the spout's acks and fails after each step. Untracked spouts emit without a
 * message id. Run it with parallelism 1.
 */
public final class ScriptedSpout extends BaseRichSpout {
    private final String runId;
    private final boolean tracked;
    private transient SpoutOutputCollector collector;
    private transient RunRecord run;
    private transient SpoutBookkeeping book;

    public ScriptedSpout(String runId, boolean tracked) {
        this.runId = runId;
        this.tracked = tracked;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.run = Runs.get(runId);
        Runs.get(runId).increment("open:" + context.getThisComponentId());
        this.book = new SpoutBookkeeping(run, context.getThisComponentId() + ":" + context.getThisTaskId());
    }

    @Override
    public void nextTuple() {
        book.enterNextTuple();
        try {
            Long id = run.nextFed();
            if (id != null) {
                book.emitting(id, tracked);
                if (tracked) {
                    collector.emit(new Values(id), id);
                } else {
                    collector.emit(new Values(id));
                }
            }
        } finally {
            book.exitNextTuple();
        }
    }

    @Override
    public void ack(Object msgId) {
        book.acked(msgId);
    }

    @Override
    public void fail(Object msgId) {
        book.failed(msgId);
    }

    @Override
    public void deactivate() {
        book.deactivated();
    }

    @Override
    public void activate() {
        book.activated();
    }

    @Override
    public void close() {
        book.closed();
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields(SequenceSpout.SEQ));
    }
}
