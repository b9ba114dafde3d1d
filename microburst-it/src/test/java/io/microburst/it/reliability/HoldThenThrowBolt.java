package io.microburst.it.reliability;

import java.util.ArrayList;
import java.util.List;
import org.apache.storm.tuple.Tuple;

/**
 * Holds the first {@code hold} tuples without acking them, then throws on the next one: the held tuples (and the
 * one it threw on) belong to a task that dies. Only the first instance of a run throws; its replacement acks all.
 */
public final class HoldThenThrowBolt extends RecordingBolt {
    private final int hold;
    private transient List<Tuple> held;

    public HoldThenThrowBolt(String runId, int hold) {
        super(runId);
        this.hold = hold;
    }

    @Override
    protected void prepared(org.apache.storm.task.TopologyContext context) {
        held = new ArrayList<>();
    }

    @Override
    protected void process(Tuple input) {
        if (run.count("thrown") > 0) {
            collector.ack(input);
            return;
        }
        if (held.size() < hold) {
            held.add(input);
            return;
        }
        run.increment("thrown");
        throw new IllegalStateException("injected fault while holding " + held.size() + " tuples");
    }
}
