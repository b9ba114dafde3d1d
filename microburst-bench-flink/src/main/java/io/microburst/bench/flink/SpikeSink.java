package io.microburst.bench.flink;

import io.microburst.bench.topology.scoring.Spikes;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;

/** The sink: records each spike in {@link Spikes}. The subtask's task thread only. */
public final class SpikeSink implements SinkFunction<Tuple3<String, Double, Double>> {
    private static final long serialVersionUID = 1L;

    @Override
    public void invoke(Tuple3<String, Double, Double> spike, Context context) {
        Spikes.add();
    }
}
