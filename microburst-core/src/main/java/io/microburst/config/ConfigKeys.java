package io.microburst.config;

/**
 * The configuration keys Microburst adds to Storm's, defined here, below every package that reads them, so that the
 * planner and the runtime never depend on the cluster facade's package. Users see them as
 * {@code io.microburst.MicroburstConfig}, which declares the same constants (documented there).
 *
 * <p>Threading: constants only.
 */
public final class ConfigKeys {
    public static final String FUSION = "microburst.fusion";
    public static final String WORK_DIR = "microburst.work.dir";
    public static final String TASK_FAILURE_LIMIT = "microburst.task.failure.limit";
    public static final String TASK_FAILURE_WINDOW_SECS = "microburst.task.failure.window.secs";
    public static final String TASK_RESTART_BACKOFF_MS = "microburst.task.restart.backoff.ms";
    public static final String TASK_RESTART_BACKOFF_MAX_MS = "microburst.task.restart.backoff.max.ms";
    public static final String MAX_SPOUT_PENDING_AUTOTUNE = "microburst.max.spout.pending.autotune";
    public static final String MAX_SPOUT_PENDING_AUTOTUNE_SECS = "microburst.max.spout.pending.autotune.secs";
    public static final String EXECUTOR_QUEUE_SIZE = "microburst.executor.queue.size";
    public static final int DEFAULT_EXECUTOR_QUEUE_SIZE = 4096;
    public static final String EXECUTOR_THREADS_MAX = "microburst.executor.threads.max";
    public static final int DEFAULT_EXECUTOR_THREADS_MIN = 64;
    public static final int DEFAULT_EXECUTOR_THREADS_PER_CORE = 8;
    public static final String EXECUTOR_STOP_TIMEOUT_MS = "microburst.executor.stop.timeout.ms";
    public static final String PRODUCER_BATCH_SIZE = "microburst.producer.batch.size";
    public static final String SERIALIZATION_CHECK = "microburst.serialization.check";
    public static final String TUPLE_MAX_BYTES = "microburst.tuple.max.bytes";
    /** What the default tuple size limit is: the maximum heap divided by this. */
    public static final int DEFAULT_TUPLE_MAX_HEAP_FRACTION = 32;
    public static final String PLACEMENT = "microburst.placement";
    public static final String PLACEMENT_MIN_GAIN = "microburst.placement.min.gain";
    public static final String PARALLELISM = "microburst.parallelism";
    public static final String PARALLELISM_INTERVAL_SECS = "microburst.parallelism.interval.secs";

    private ConfigKeys() {
    }
}
