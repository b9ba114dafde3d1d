package io.microburst.it.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * Joins, per sequence number, the spout's own tuple (one field) with all the fan-out children (seq, fan) of the
 * same number: once all 1 + fan inputs are in, it emits one tuple anchored to every one of them and only then acks
 * them. Needs fields grouping on "seq" from every input.
 */
public final class SeqJoinBolt extends RecordingBolt {
    private transient Map<Long, Pending> pending;

    public SeqJoinBolt(String runId) {
        super(runId);
    }

    private static final class Pending {
        final List<Tuple> inputs = new ArrayList<>();
        boolean sawSpoutTuple;
        int expectedChildren = -1;

        boolean complete() {
            return sawSpoutTuple && expectedChildren >= 0 && inputs.size() == 1 + expectedChildren;
        }
    }

    @Override
    protected void prepared(org.apache.storm.task.TopologyContext context) {
        pending = new HashMap<>();
    }

    @Override
    protected void process(Tuple input) {
        long seq = seqOf(input);
        Pending join = pending.computeIfAbsent(seq, s -> new Pending());
        join.inputs.add(input);
        if (input.size() == 1) {
            join.sawSpoutTuple = true;
        } else {
            join.expectedChildren = input.getInteger(1);
        }
        if (join.complete()) {
            pending.remove(seq);
            collector.emit(join.inputs, new Values(seq));
            for (Tuple joined : join.inputs) {
                collector.ack(joined);
            }
        }
    }
}
