package io.microburst.bench.flink;

import io.microburst.bench.topology.TextCorpus;
import java.util.List;
import java.util.Random;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.functions.source.RichParallelSourceFunction;

/**
 * Emits sentences of the WordCount corpus picked with {@link Random}, as the Storm workload's spout does, until cancelled
 * or, with a limit, until {@code limit} sentences are out. A seed makes the sentences repeatable (tests). The source
 * thread of each subtask runs {@link #run}; {@link #cancel} comes from another thread.
 */
public final class SentenceSource extends RichParallelSourceFunction<String> {
    private static final long serialVersionUID = 1L;
    private final Long seed;
    private final long limit;
    private volatile boolean running = true;
    private transient List<String> sentences;

    /** Unseeded and unbounded, as the benchmark runs it. */
    public SentenceSource() {
        this(null, 0);
    }

    /** {@code seed} plus the subtask's index seeds each subtask (null: unseeded); {@code limit} 0 means no limit. */
    public SentenceSource(Long seed, long limit) {
        this.seed = seed;
        this.limit = limit;
    }

    @Override
    public void open(Configuration parameters) {
        sentences = TextCorpus.lines();
    }

    @Override
    public void run(SourceContext<String> ctx) {
        Random random = seed == null ? new Random() : new Random(seed + getRuntimeContext().getIndexOfThisSubtask());
        for (long n = 0; running && (limit == 0 || n < limit); n++) {
            String sentence = sentences.get(random.nextInt(sentences.size()));
            synchronized (ctx.getCheckpointLock()) {
                ctx.collect(sentence);
            }
        }
    }

    @Override
    public void cancel() {
        running = false;
    }
}
