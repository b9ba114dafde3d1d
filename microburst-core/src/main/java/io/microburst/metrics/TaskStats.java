package io.microburst.metrics;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of one task. Written only by the thread that runs the task, read at any time by the cluster API; a
 * reader may see a count a few increments old, never a torn or lost one (64-bit fields on the writer's thread).
 * Latencies are sampled: a sum of nanoseconds and a sample count per key.
 *
 * <p>Threading: written only by the thread that runs the task; read by any thread (see above).
 */
public final class TaskStats {
    private final int taskId;
    private final String componentId;
    private final String[] outStreams;
    private final String[] inputs;
    private final String[] inputComponents;
    private final String[] inputStreams;

    // The three counters written for every tuple keep their first index (the only one of most tasks) in a field, and
    // their arrays' slot 0 stays unused: no array to load and no bounds to check. Transferred is counted only where it
    // differs from emitted, for emits that reach other than one task.
    private long emittedFirst;
    private long executedFirst;
    private long ackedFirst;

    // by output stream index
    final long[] emitted;
    /** Tasks reached beyond one per emit (negative for emits that reached none): transferred = emitted + this. */
    final long[] transferredExtra;
    final long[] spoutAcked;
    final long[] spoutFailed;
    final long[] completeNanos;
    final long[] completeSamples;
    // by input index
    final long[] executed;
    final long[] acked;
    final long[] failed;
    final long[] executeNanos;
    final long[] executeSamples;
    final long[] processNanos;
    final long[] processSamples;
    /**
     * Sampled execute (bolt) and complete (spout) latencies, made by the owner thread at its first sample; never
     * copied by {@link #copy()}. Volatile so that readers see a histogram whole.
     */
    private volatile LatencyHistogram executeLatencies;
    private volatile LatencyHistogram completeLatencies;
    /** Errors the task's collector reported ({@code reportError}), from any thread; never copied. */
    private final AtomicLong reportedErrors = new AtomicLong();
    /**
     * Nanoseconds a spout task's executor idled while the spout could not be polled, by {@link #SKIPPED_MAX_SPOUT},
     * {@link #SKIPPED_INACTIVE} and {@link #SKIPPED_BACKPRESSURE} (Storm's {@code __skipped-*-ms}); written on idle
     * turns only, by the task's thread; never copied.
     */
    private final long[] skippedNanos = new long[3];
    public static final int SKIPPED_MAX_SPOUT = 0;
    public static final int SKIPPED_INACTIVE = 1;
    public static final int SKIPPED_BACKPRESSURE = 2;
    /**
     * Output streams no component subscribes to: nothing they emit is transferred. Their transferred count is not
     * emitted + extra (each emit adds -1 there), which a reader racing the writer sees a few counts off either way.
     */
    private final boolean[] unsubscribed;

    /**
     * @param outStreams output stream ids, by stream index
     * @param inputComponents source component of each input, by input index
     * @param inputStreams source stream of each input, by input index
     */
    public TaskStats(int taskId, String componentId, String[] outStreams, String[] inputComponents, String[] inputStreams) {
        this.taskId = taskId;
        this.componentId = componentId;
        this.outStreams = outStreams.clone();
        this.inputComponents = inputComponents.clone();
        this.inputStreams = inputStreams.clone();
        this.inputs = new String[inputComponents.length];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = inputComponents[i] + ":" + inputStreams[i];
        }
        int o = outStreams.length;
        int n = inputComponents.length;
        emitted = new long[o];
        transferredExtra = new long[o];
        unsubscribed = new boolean[o];
        spoutAcked = new long[o];
        spoutFailed = new long[o];
        completeNanos = new long[o];
        completeSamples = new long[o];
        executed = new long[n];
        acked = new long[n];
        failed = new long[n];
        executeNanos = new long[n];
        executeSamples = new long[n];
        processNanos = new long[n];
        processSamples = new long[n];
    }

    private TaskStats(TaskStats source) {
        this(source.taskId, source.componentId, source.outStreams, source.inputComponents, source.inputStreams);
        System.arraycopy(source.unsubscribed, 0, unsubscribed, 0, unsubscribed.length);
    }

    /** Marks an output stream no component subscribes to (before the task runs): its transferred count stays 0. */
    public void unsubscribed(int stream) {
        unsubscribed[stream] = true;
    }

    /** A copy of the counters as they are now (racy reads of another thread's counters: each value is whole). */
    public TaskStats copy() {
        TaskStats c = new TaskStats(this);
        c.add(this, 1);
        return c;
    }

    /** The counts since {@code older}, a copy of this task's counters taken earlier (null: since the start). */
    public TaskStats since(TaskStats older) {
        TaskStats d = copy();
        if (older != null) {
            d.add(older, -1);
        }
        return d;
    }

    private void add(TaskStats o, int sign) {
        emittedFirst += sign * o.emittedFirst;
        executedFirst += sign * o.executedFirst;
        ackedFirst += sign * o.ackedFirst;
        addInto(emitted, o.emitted, sign);
        addInto(transferredExtra, o.transferredExtra, sign);
        addInto(spoutAcked, o.spoutAcked, sign);
        addInto(spoutFailed, o.spoutFailed, sign);
        addInto(completeNanos, o.completeNanos, sign);
        addInto(completeSamples, o.completeSamples, sign);
        addInto(executed, o.executed, sign);
        addInto(acked, o.acked, sign);
        addInto(failed, o.failed, sign);
        addInto(executeNanos, o.executeNanos, sign);
        addInto(executeSamples, o.executeSamples, sign);
        addInto(processNanos, o.processNanos, sign);
        addInto(processSamples, o.processSamples, sign);
    }

    private static void addInto(long[] into, long[] from, int sign) {
        for (int i = 0; i < into.length; i++) {
            into[i] += sign * from[i];
        }
    }

    public void emitted(int stream, int targets) {
        if (stream == 0) {
            emittedFirst++;
        } else {
            emitted[stream]++;
        }
        if (targets != 1) {
            transferredExtra[stream] += targets - 1;
        }
    }

    public void executed(int input, long nanos) {
        if (input == 0) {
            executedFirst++;
        } else {
            executed[input]++;
        }
        if (nanos >= 0) {
            sampledExecute(input, nanos);
        }
    }

    private void sampledExecute(int input, long nanos) {
        executeNanos[input] += nanos;
        executeSamples[input]++;
        LatencyHistogram h = executeLatencies;
        if (h == null) {
            h = new LatencyHistogram();
            executeLatencies = h;
        }
        h.record(nanos);
    }

    /** Tuples executed over every input. Owner thread. */
    public long executedTotal() {
        return executedFirst + sum(executed);
    }

    /** Sum of the sampled execute times over every input. Owner thread. */
    public long executeNanosTotal() {
        return sum(executeNanos);
    }

    /** Number of sampled execute times over every input. Owner thread. */
    public long executeSamplesTotal() {
        return sum(executeSamples);
    }

    /** Trees acked over every stream (spouts). Owner thread, or a reader that may see a count a little old. */
    public long spoutAckedTotal() {
        return sum(spoutAcked);
    }

    /** Sum of the sampled complete latencies over every stream (spouts). Owner thread, or a stale reader. */
    public long completeNanosTotal() {
        return sum(completeNanos);
    }

    /** Number of sampled complete latencies over every stream (spouts). Owner thread, or a stale reader. */
    public long completeSamplesTotal() {
        return sum(completeSamples);
    }

    private static long sum(long[] values) {
        long total = 0;
        for (long v : values) {
            total += v;
        }
        return total;
    }

    public void boltAcked(int input, long processNanosOrNegative) {
        if (input == 0) {
            ackedFirst++;
        } else {
            acked[input]++;
        }
        if (processNanosOrNegative >= 0) {
            processNanos[input] += processNanosOrNegative;
            processSamples[input]++;
        }
    }

    public void boltFailed(int input) {
        failed[input]++;
    }

    public void spoutAcked(int stream, long completeNanosOrNegative) {
        spoutAcked[stream]++;
        if (completeNanosOrNegative >= 0) {
            sampledComplete(stream, completeNanosOrNegative);
        }
    }

    private void sampledComplete(int stream, long nanos) {
        completeNanos[stream] += nanos;
        completeSamples[stream]++;
        LatencyHistogram h = completeLatencies;
        if (h == null) {
            h = new LatencyHistogram();
            completeLatencies = h;
        }
        h.record(nanos);
    }

    /** Sampled execute latencies over every input, or null before the first sample. Any thread. */
    public LatencyHistogram executeLatencies() {
        return executeLatencies;
    }

    /** Sampled complete latencies of this spout task's tuple trees, or null before the first sample. Any thread. */
    public LatencyHistogram completeLatencies() {
        return completeLatencies;
    }

    /** The task's collector reported an error (any thread). */
    public void errorReported() {
        reportedErrors.incrementAndGet();
    }

    /** The task's executor idled {@code nanos} while the spout could not be polled, for {@code reason}. */
    public void skipped(int reason, long nanos) {
        skippedNanos[reason] += nanos;
    }

    /** Nanoseconds idled for {@code reason} since this instance of the task started (see {@link #skipped}). */
    public long skippedNanos(int reason) {
        return skippedNanos[reason];
    }

    /** Errors the task's collector reported since this instance of the task started. */
    public long reportedErrors() {
        return reportedErrors.get();
    }

    public void spoutFailed(int stream) {
        spoutFailed[stream]++;
    }

    public int taskId() {
        return taskId;
    }

    public String componentId() {
        return componentId;
    }

    public int outStreamCount() {
        return outStreams.length;
    }

    public String outStream(int i) {
        return outStreams[i];
    }

    public int inputCount() {
        return inputs.length;
    }

    public String inputComponent(int i) {
        return inputComponents[i];
    }

    public String inputStream(int i) {
        return inputStreams[i];
    }

    public long emitted(int stream) {
        return stream == 0 ? emittedFirst : emitted[stream];
    }

    /**
     * Tuples sent to tasks on the stream: 0 on a stream nobody subscribes to, never below 0 (emitted and the extra are
     * read one after the other while the task writes them).
     */
    public long transferred(int stream) {
        if (unsubscribed[stream]) {
            return 0;
        }
        long transferred = emitted(stream) + transferredExtra[stream];
        return transferred < 0 ? 0 : transferred;
    }

    public long spoutAckedCount(int stream) {
        return spoutAcked[stream];
    }

    public long spoutFailedCount(int stream) {
        return spoutFailed[stream];
    }

    /** Mean complete latency in ms over samples, or 0 with none. */
    public double completeMsAvg(int stream) {
        return avgMs(completeNanos[stream], completeSamples[stream]);
    }

    public long executed(int input) {
        return input == 0 ? executedFirst : executed[input];
    }

    public long acked(int input) {
        return input == 0 ? ackedFirst : acked[input];
    }

    public long failed(int input) {
        return failed[input];
    }

    public double executeMsAvg(int input) {
        return avgMs(executeNanos[input], executeSamples[input]);
    }

    public double processMsAvg(int input) {
        return avgMs(processNanos[input], processSamples[input]);
    }

    private static double avgMs(long nanos, long samples) {
        return samples == 0 ? 0.0 : nanos / 1e6 / samples;
    }
}
