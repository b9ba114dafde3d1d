package io.microburst.it.reliability;

import java.util.ArrayDeque;
import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Emits the sequence numbers 0 .. total-1, each as its own message id, as fast as the runtime lets it. Tasks share
 * the sequence by stride. When replaying, a failed number is emitted again until it is acked: the at-least-once
 * pattern of a reliable source.
 */
public final class SequenceSpout extends BaseRichSpout {
    /** Output field: the sequence number. */
    public static final String SEQ = "seq";

    private final String runId;
    private final long total;
    private final boolean replayFailed;
    private transient SpoutOutputCollector collector;
    private transient SpoutBookkeeping book;
    private transient ArrayDeque<Long> replays;
    private transient long next;
    private transient long stride;

    public SequenceSpout(String runId, long total, boolean replayFailed) {
        this.runId = runId;
        this.total = total;
        this.replayFailed = replayFailed;
    }

    /** A spout that never stops emitting until the topology is killed. */
    public static SequenceSpout endless(String runId) {
        return new SequenceSpout(runId, Long.MAX_VALUE, false);
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        Runs.get(runId).increment("open:" + context.getThisComponentId());
        this.book = new SpoutBookkeeping(Runs.get(runId), context.getThisComponentId() + ":" + context.getThisTaskId());
        this.replays = new ArrayDeque<>();
        this.next = context.getThisTaskIndex();
        this.stride = context.getComponentTasks(context.getThisComponentId()).size();
    }

    @Override
    public void nextTuple() {
        book.enterNextTuple();
        try {
            Long seq = replays.poll();
            if (seq == null && next < total) {
                seq = next;
                next += stride;
            }
            if (seq != null) {
                book.emitting(seq, true);
                collector.emit(new Values(seq), seq);
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
        if (replayFailed && msgId instanceof Long) {
            replays.add((Long) msgId);
        }
    }

    @Override
    public void activate() {
        book.activated();
    }

    @Override
    public void deactivate() {
        book.deactivated();
    }

    @Override
    public void close() {
        book.closed();
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields(SEQ));
    }
}
