package io.microburst.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * A histogram of sampled latencies (nanoseconds) of one task since it started: the task's thread records, any thread
 * reads a copy. Recording goes to HdrHistogram's {@link SingleWriterRecorder} (wait-free for its one writer); a reader
 * moves what was recorded since the last read into the running total. Two significant digits, auto-resizing, so a
 * task that records nothing costs a few hundred bytes.
 *
 * <p>Threading: {@link #record} from the owning task's thread only; {@link #snapshot} from any thread.
 */
public final class LatencyHistogram {
    private static final int DIGITS = 2;
    private final SingleWriterRecorder recorder = new SingleWriterRecorder(DIGITS);
    private final Histogram total = new Histogram(DIGITS);
    private Histogram interval;

    /** Records one sampled latency. Owner thread. */
    public void record(long nanos) {
        recorder.recordValue(Math.max(0, nanos));
    }

    /** Every latency recorded so far. Any thread; the copy belongs to the caller. */
    public synchronized Histogram snapshot() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        return total.copy();
    }
}
