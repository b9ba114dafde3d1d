package io.microburst.metrics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * A histogram of sampled latencies (nanoseconds) of one task since it started: the task's thread records, any thread
 * reads a copy. Recording goes to HdrHistogram's {@link SingleWriterRecorder} (wait-free for its one writer); a reader
 * moves what was recorded since the last read into the running total. Two significant digits, auto-resizing, so a
 * task that records nothing costs a few hundred bytes. {@link #recordedCount} lets a reader that keeps what it made
 * of an earlier read (a scrape's text) skip a histogram with nothing new.
 *
 * <p>Threading: {@link #record} from the owning task's thread only; {@link #snapshot}, {@link #read} and {@link
 * #recordedCount} from any thread.
 */
public final class LatencyHistogram {
    private static final VarHandle RECORDED;

    static {
        try {
            RECORDED = MethodHandles.lookup().findVarHandle(LatencyHistogram.class, "recorded", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int DIGITS = 2;
    private final SingleWriterRecorder recorder = new SingleWriterRecorder(DIGITS);
    private final Histogram total = new Histogram(DIGITS);
    private Histogram interval;
    /** Values recorded so far: written by the owner only, with release after the value is in the recorder. */
    @SuppressWarnings("unused")
    private long recorded;

    /** Records one sampled latency. Owner thread. */
    public void record(long nanos) {
        recorder.recordValue(Math.max(0, nanos));
        // release: a reader that sees this count sees the value in the recorder (and so in its next snapshot)
        RECORDED.setRelease(this, (long) RECORDED.get(this) + 1);
    }

    /**
     * How many latencies were recorded so far. A {@link #snapshot} taken after this read holds at least that many.
     * Any thread.
     */
    public long recordedCount() {
        return (long) RECORDED.getAcquire(this);
    }

    /** Every latency recorded so far. Any thread; the copy belongs to the caller. */
    public Histogram snapshot() {
        return read(Histogram::copy);
    }

    /**
     * What {@code reader} makes of every latency recorded so far, without a copy (a scrape's buckets): the reader must
     * neither keep nor change the histogram it is given. Any thread; readers wait for each other, never for the
     * recording thread. As with {@link #snapshot}, it holds at least the {@link #recordedCount} read before.
     */
    public synchronized <R> R read(Function<? super Histogram, R> reader) {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        return reader.apply(total);
    }
}
