package io.microburst.bench.flink;

import io.microburst.bench.topology.scoring.MovingAverage;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.util.Collector;

/**
 * The first stage, keyed by sensor: a {@link MovingAverage} in {@code ValueState}, emitting
 * {@code (sensor, value, average)}. The subtask's task thread only.
 */
public final class AverageScorer
    extends RichFlatMapFunction<Tuple2<String, Double>, Tuple3<String, Double, Double>> {
    private static final long serialVersionUID = 1L;
    private transient ValueState<MovingAverage> window;

    @Override
    public void open(Configuration parameters) {
        window = getRuntimeContext().getState(new ValueStateDescriptor<>("window", MovingAverage.class));
    }

    @Override
    public void flatMap(Tuple2<String, Double> reading, Collector<Tuple3<String, Double, Double>> out) throws Exception {
        MovingAverage average = window.value();
        if (average == null) {
            average = new MovingAverage();
        }
        double now = average.add(reading.f1);
        window.update(average);
        out.collect(Tuple3.of(reading.f0, reading.f1, now));
    }
}
