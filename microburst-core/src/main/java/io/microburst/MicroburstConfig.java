package io.microburst;

import io.microburst.config.ConfigKeys;

/**
 * Configuration keys that Microburst adds to Storm's own {@link org.apache.storm.Config}. They go in the topology
 * configuration map like any Storm key; an Apache Storm cluster ignores them, so a topology stays portable. (The values
 * are defined in {@link ConfigKeys}, which the engine's own packages read.)
 *
 * <p>Threading: constants only.
 */
public final class MicroburstConfig {
    /**
     * String, a cluster setting (the {@code MicroburstCluster} configuration, or {@code microburst server}'s): the folder
     * the blob store keeps its blobs in, kept across runs. Unset, a cluster keeps them in a temporary folder deleted
     * when it closes.
     */
    public static final String BLOBSTORE_DIR = "microburst.blobstore.dir";
    /**
     * String, a cluster setting: the folder in which each topology gets its working directory (its jar's
     * {@code resources/} for multi-lang scripts, the subprocesses' pid files), created if missing. Unset: the JVM's
     * temporary folder. Either way the directory is deleted when the topology stops.
     */
    public static final String WORK_DIR = ConfigKeys.WORK_DIR;
    /** Boolean, default true: run one-to-one chains of tasks in the emitting thread (operator fusion). */
    public static final String FUSION = ConfigKeys.FUSION;
    /**
     * Integer, unset by default: when set, a task that fails more than this many times within
     * {@link #TASK_FAILURE_WINDOW_SECS} halts its topology (which then stays listed, status HALTED, with the reason
     * among its errors, until killed). Unset, failing tasks are restarted forever, as Storm restarts a failing worker.
     */
    public static final String TASK_FAILURE_LIMIT = ConfigKeys.TASK_FAILURE_LIMIT;
    /** Integer, default 60: the window, in seconds, over which task failures are counted for {@link #TASK_FAILURE_LIMIT}. */
    public static final String TASK_FAILURE_WINDOW_SECS = ConfigKeys.TASK_FAILURE_WINDOW_SECS;
    /**
     * Integer, default 100: the backoff of a task in a crash loop. A failed task is replaced by a fresh instance at once
     * when it did work (executed or emitted a tuple) since its last replacement; when it fails again without any (in
     * prepare, or on every tuple), it is in a crash loop, reported as such among its errors, and replaced after this
     * many milliseconds, doubled for each further failure in a row, up to {@link #TASK_RESTART_BACKOFF_MAX_MS}. Tuples
     * for a task being replaced wait for it (its producers are held back as by a full queue); they do not fail.
     */
    public static final String TASK_RESTART_BACKOFF_MS = ConfigKeys.TASK_RESTART_BACKOFF_MS;
    /** Integer, default 10000: the longest crash-loop backoff of a failed task (see {@link #TASK_RESTART_BACKOFF_MS}). */
    public static final String TASK_RESTART_BACKOFF_MAX_MS = ConfigKeys.TASK_RESTART_BACKOFF_MAX_MS;
    /** Boolean, default false: tune topology.max.spout.pending at run time (Storm @Twitter, section 3.3.3). */
    public static final String MAX_SPOUT_PENDING_AUTOTUNE = ConfigKeys.MAX_SPOUT_PENDING_AUTOTUNE;
    /**
     * Integer, default 120: seconds between two tuning steps when {@link #MAX_SPOUT_PENDING_AUTOTUNE} is on. The tuner
     * starts from topology.max.spout.pending, or from 1000 when that is unset.
     */
    public static final String MAX_SPOUT_PENDING_AUTOTUNE_SECS = ConfigKeys.MAX_SPOUT_PENDING_AUTOTUNE_SECS;
    /**
     * Integer, at least 1, default {@value #DEFAULT_EXECUTOR_QUEUE_SIZE}: how many tuples each executor's receive queue
     * holds. When unset, Storm's {@code topology.executor.receive.buffer.size} is used if it is set (by the topology
     * or a storm.yaml) to something other than Storm's default, 32768. Executors hand each other whole batches, so
     * the queue has this many divided by the batch size slots, rounded up to a power of two (at least 2); tuples
     * emitted from threads of the user's own have a second queue of up to this many single tuples.
     */
    public static final String EXECUTOR_QUEUE_SIZE = ConfigKeys.EXECUTOR_QUEUE_SIZE;
    /** What {@link #EXECUTOR_QUEUE_SIZE} is when neither it nor Storm's receive buffer size is set. */
    public static final int DEFAULT_EXECUTOR_QUEUE_SIZE = ConfigKeys.DEFAULT_EXECUTOR_QUEUE_SIZE;
    /**
     * Integer, at least 1, default 64: most tuples a producer buffers for one consumer before handing them over. When
     * unset, Storm's {@code topology.producer.batch.size} is used if it is set to something other than Storm's default,
     * 1 (at most half of {@link #EXECUTOR_QUEUE_SIZE}, as Storm allows).
     */
    public static final String PRODUCER_BATCH_SIZE = ConfigKeys.PRODUCER_BATCH_SIZE;
    /**
     * Boolean, default false: serialize every emitted tuple through Storm's own Kryo setup for the topology (as a
     * worker of a Storm cluster does before a tuple leaves its process) and read it back. A value that cannot make the
     * trip is refused where it is emitted with an {@link io.microburst.serialization.NotSerializableValueException}
     * naming the component, stream and field; the emit throws, so the task fails as when its own code throws and the
     * error is the task's. For finding, before a move to a cluster, the user types that need Kryo registration;
     * it costs a serialization per tuple while on, and nothing when unset.
     */
    public static final String SERIALIZATION_CHECK = ConfigKeys.SERIALIZATION_CHECK;
    /**
     * Long, default a 32nd of the maximum heap; 0 or less turns it off: the largest tuple an emit accepts, in estimated
     * bytes. Queues are bounded in tuples, so a few huge tuples could otherwise fill the heap before backpressure
     * holds their producer; a larger tuple is refused where it is emitted with an {@link IllegalArgumentException}
     * naming the component, stream, field and size (the emit throws, so the task fails as when its own code throws).
     * The estimate is cheap and shallow: a byte[], ByteBuffer or String counts its length; a collection or map counts
     * its size times its first element's (or entry's) estimate; anything else counts nothing.
     */
    public static final String TUPLE_MAX_BYTES = ConfigKeys.TUPLE_MAX_BYTES;
    /**
     * String, {@code auto} (default) or {@code static}: how a busy fused chain is cut in two while it runs. {@code auto}
     * measures each fused task's time per tuple (sampled) and cuts where two threads are expected to go at least 1.2
     * times as fast as one, counting what a hand-over between threads costs, while a core is free; {@code static} keeps
     * the earlier rule (a task taking a quarter to three quarters of the thread at a microsecond or more a tuple).
     * See {@link io.microburst.plan.PlacementPolicy}.
     */
    public static final String PLACEMENT = ConfigKeys.PLACEMENT;
    /**
     * Number, default 1.2: the expected speed-up (two threads against one) a cut must promise under {@code auto}
     * placement; lower cuts more readily, at the risk of a cut that gains less than its hand-over costs.
     */
    public static final String PLACEMENT_MIN_GAIN = ConfigKeys.PLACEMENT_MIN_GAIN;
    /**
     * String, unset by default; {@code auto} chooses each component's executor count (up to its task count) from the
     * measured rates while the topology runs, as a rebalance would, in at most three decisions, each logged with the
     * rates behind it and shown among the topology's errors. See {@link io.microburst.plan.ParallelismPolicy}.
     */
    public static final String PARALLELISM = ConfigKeys.PARALLELISM;
    /** Integer, default 10: seconds over which automatic parallelism measures before each decision. */
    public static final String PARALLELISM_INTERVAL_SECS = ConfigKeys.PARALLELISM_INTERVAL_SECS;

    /**
     * Integer, default 10000: how long a kill or {@code close()} waits, in milliseconds, for all of a topology's
     * executors together to stop; those still running at half of it are interrupted (they may be stuck in user
     * code), and those still running at the end are left behind as daemon threads, with a warning.
     */
    public static final String EXECUTOR_STOP_TIMEOUT_MS = ConfigKeys.EXECUTOR_STOP_TIMEOUT_MS;

    /**
     * Integer, at least 1, default 8 per core and at least 64: the most executor threads a topology starts with. A
     * topology whose executors (after fusion and slices) fit runs one thread per executor; one with more, such as
     * parallelism hints sized for a cluster, runs them on this many shared threads, each taking its executors' work in
     * turns. A bolt that proves slow on a shared thread is moved to a thread of its own (at most this many more).
     */
    public static final String EXECUTOR_THREADS_MAX = ConfigKeys.EXECUTOR_THREADS_MAX;

    private MicroburstConfig() {
    }
}
