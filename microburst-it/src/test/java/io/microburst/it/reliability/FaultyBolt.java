package io.microburst.it.reliability;

import java.util.SplittableRandom;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * Processes tuples but, at random, fails, silently drops, or throws on some of them (throws are capped per run so
 * the task failure limit is not what the test measures). Otherwise relays the tuple anchored and acks. As a sink it
 * records every tuple it sees, before any fault. Faults are drawn per delivery, so a replayed tuple gets a fresh chance.
 */
public final class FaultyBolt extends RecordingBolt {
    private final double failRate;
    private final double dropRate;
    private final double throwRate;
    private final long maxThrows;
    private final boolean sink;
    private transient SplittableRandom random;

    public FaultyBolt(String runId, double failRate, double dropRate, double throwRate, long maxThrows, boolean sink) {
        super(runId);
        this.failRate = failRate;
        this.dropRate = dropRate;
        this.throwRate = throwRate;
        this.maxThrows = maxThrows;
        this.sink = sink;
    }

    @Override
    protected void prepared(org.apache.storm.task.TopologyContext context) {
        random = new SplittableRandom();
    }

    @Override
    protected void process(Tuple input) {
        if (sink) {
            // The side effect happens before the fault, as in a real sink: a replay then delivers it again.
            run.recordDelivery(seqOf(input));
        }
        double draw = random.nextDouble();
        if (draw < throwRate && run.count("throws") < maxThrows) {
            run.increment("throws");
            throw new IllegalStateException("injected fault in " + component + " on seq " + seqOf(input));
        }
        if (draw < throwRate + failRate) {
            run.increment("fails injected");
            collector.fail(input);
            return;
        }
        if (draw < throwRate + failRate + dropRate) {
            run.increment("drops injected");
            return;
        }
        if (!sink) {
            collector.emit(input, new Values(seqOf(input)));
        }
        collector.ack(input);
    }
}
