package io.microburst.bench.flink;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.probe.TaskCounter;
import io.microburst.bench.topology.scoring.SpikeRule;
import org.apache.flink.api.common.functions.RichFilterFunction;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.configuration.Configuration;

/**
 * The second stage: counts every scored reading (the workload's throughput) and keeps the spikes of {@link SpikeRule}.
 * The subtask's task thread only.
 */
public final class SpikeFilter extends RichFilterFunction<Tuple3<String, Double, Double>> {
    private static final long serialVersionUID = 1L;
    private transient TaskCounter scored;

    @Override
    public void open(Configuration parameters) {
        scored = Probes.newTaskCounter();
    }

    @Override
    public boolean filter(Tuple3<String, Double, Double> scoredReading) {
        scored.increment();
        return SpikeRule.isSpike(scoredReading.f1, scoredReading.f2);
    }
}
