package io.microburst.bench.flink;

import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.DiscardingSink;
import org.apache.flink.streaming.api.functions.source.SourceFunction;

/**
 * The suite's two jobs as DataStream programs, on a local environment at a given parallelism with Flink's defaults
 * (100 ms buffer timeout, operator chaining, heap state, no checkpoints). The only settings made bind Flink's endpoints
 * to the loopback address. Stateless; any thread.
 */
public final class FlinkPipelines {
    private static final String LOOPBACK = "127.0.0.1";

    private FlinkPipelines() {
    }

    /** A local environment at {@code parallelism}, every endpoint on the loopback address. */
    public static StreamExecutionEnvironment localEnvironment(int parallelism) {
        Configuration conf = new Configuration();
        conf.set(JobManagerOptions.ADDRESS, LOOPBACK);
        conf.set(JobManagerOptions.BIND_HOST, LOOPBACK);
        conf.set(TaskManagerOptions.HOST, LOOPBACK);
        conf.set(TaskManagerOptions.BIND_HOST, LOOPBACK);
        conf.set(RestOptions.ADDRESS, LOOPBACK);
        conf.set(RestOptions.BIND_ADDRESS, LOOPBACK);
        return StreamExecutionEnvironment.createLocalEnvironment(parallelism, conf);
    }

    /**
     * WordCount: sentences -> split (chained to the source, as Flink users write it) -> keyBy word -> count in
     * {@code ValueState} -> a discarding sink.
     */
    public static void wordCount(StreamExecutionEnvironment env, SourceFunction<String> sentences) {
        env.addSource(sentences, "sentences")
            .flatMap(new SplitSentence()).name("split")
            .keyBy(word -> word)
            .flatMap(new CountWords()).name("count")
            .addSink(new DiscardingSink<>()).name("discard");
    }

    /**
     * Keyed scoring: readings -> keyBy sensor -> moving average in {@code ValueState} -> threshold filter (chained to the
     * average) -> spike sink.
     */
    public static void scoring(StreamExecutionEnvironment env, SourceFunction<Tuple2<String, Double>> readings) {
        env.addSource(readings, "readings")
            .keyBy(reading -> reading.f0)
            .flatMap(new AverageScorer()).name("average")
            .filter(new SpikeFilter()).name("threshold")
            .addSink(new SpikeSink()).name("sink");
    }
}
