package io.microburst.bench.flink;

import io.microburst.bench.topology.scoring.Readings;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.functions.source.RichParallelSourceFunction;

/**
 * Emits {@code (sensor, value)} readings of {@link Readings} seeded with the subtask's index, the same stream as the Storm
 * spout task of that index, until cancelled or until {@code limit} readings are out (0: no limit). The source thread of
 * each subtask runs {@link #run}; {@link #cancel} comes from another thread.
 */
public final class ReadingSource extends RichParallelSourceFunction<Tuple2<String, Double>> {
    private static final long serialVersionUID = 1L;
    private final long limit;
    private volatile boolean running = true;

    public ReadingSource(long limit) {
        this.limit = limit;
    }

    @Override
    public void run(SourceContext<Tuple2<String, Double>> ctx) {
        Readings readings = new Readings(getRuntimeContext().getIndexOfThisSubtask());
        for (long n = 0; running && (limit == 0 || n < limit); n++) {
            readings.next();
            synchronized (ctx.getCheckpointLock()) {
                ctx.collect(Tuple2.of(readings.sensor(), readings.value()));
            }
        }
    }

    @Override
    public void cancel() {
        running = false;
    }
}
