package io.microburst.bench.flink;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.probe.TaskCounter;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.util.Collector;

/**
 * The keyed count: a {@code ValueState<Integer>} per word, incremented for each word, which emits {@code (word, count)}
 * (to a sink that discards it, as the Storm count bolt emits to no subscriber) and counts the word as the workload's
 * throughput. The subtask's task thread only.
 */
public final class CountWords extends RichFlatMapFunction<String, Tuple2<String, Integer>> {
    private static final long serialVersionUID = 1L;
    private transient ValueState<Integer> count;
    private transient TaskCounter received;

    @Override
    public void open(Configuration parameters) {
        count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Integer.class));
        received = Probes.newTaskCounter();
    }

    @Override
    public void flatMap(String word, Collector<Tuple2<String, Integer>> out) throws Exception {
        Integer before = count.value();
        int now = before == null ? 1 : before + 1;
        count.update(now);
        received.increment();
        out.collect(Tuple2.of(word, now));
    }
}
