package io.microburst.it.reliability;

import java.util.ArrayList;
import java.util.List;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * Collects size tuples (from any trees), then emits one tuple anchored to all of them and acks them: a join whose
 * output belongs to every tree it joined, and which acks its inputs only once all have arrived.
 */
public final class CountJoinBolt extends RecordingBolt {
    private final int size;
    private transient List<Tuple> collected;

    public CountJoinBolt(String runId, int size) {
        super(runId);
        this.size = size;
    }

    @Override
    protected void prepared(org.apache.storm.task.TopologyContext context) {
        collected = new ArrayList<>();
    }

    @Override
    protected void process(Tuple input) {
        collected.add(input);
        if (collected.size() == size) {
            collector.emit(collected, new Values(seqOf(input)));
            for (Tuple tuple : collected) {
                collector.ack(tuple);
            }
            collected.clear();
        }
    }
}
