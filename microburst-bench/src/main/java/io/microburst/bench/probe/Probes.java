package io.microburst.bench.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * The measuring points of one benchmark JVM: counters at the last component, latency recorders, and the time of the first
 * tuple at the last component.
 *
 * <p>Spouts and bolts reach these through static state because the runtime under test instantiates them itself (Storm
 * deserializes a fresh copy per task); every runtime runs its tasks in the child JVM that measures them, so a static
 * registry is the one place both sides can see. Registration happens in {@code open}/{@code prepare}, never per tuple.
 * Thread-safe.
 */
public final class Probes {
    /** Largest latency recorded, in nanoseconds (one hour); longer values are clamped, so a stall is still visible as max. */
    public static final long MAX_TRACKED_NANOS = 3_600_000_000_000L;

    private static final List<TaskCounter> COUNTERS = new CopyOnWriteArrayList<>();
    private static final List<SingleWriterRecorder> RECORDERS = new CopyOnWriteArrayList<>();
    private static final AtomicLong FIRST_TUPLE_NANOS = new AtomicLong();
    private static final Runnable MARK_FIRST = () -> FIRST_TUPLE_NANOS.compareAndSet(0, System.nanoTime());
    /**
     * System property naming a file to which a JVM that runs tasks but does not measure them (a worker of a Storm cluster)
     * publishes {@link #delivered()} every {@value #EXPORT_MILLIS} ms, for the measuring JVM to read.
     */
    public static final String EXPORT_FILE = "microburst.bench.probe.file";
    /** How often an exporting JVM writes its count. */
    public static final long EXPORT_MILLIS = 20;
    private static final AtomicBoolean EXPORTING = new AtomicBoolean();

    private Probes() {
    }

    /** A new counter for one task at the last component; the caller's thread becomes its only writer. */
    public static TaskCounter newTaskCounter() {
        TaskCounter counter = new TaskCounter(MARK_FIRST);
        COUNTERS.add(counter);
        String export = System.getProperty(EXPORT_FILE);
        if (export != null && EXPORTING.compareAndSet(false, true)) {
            startExport(Path.of(export));
        }
        return counter;
    }

    /** A new latency recorder for one task; the caller's task thread becomes its only writer. Values are nanoseconds. */
    public static SingleWriterRecorder newLatencyRecorder() {
        SingleWriterRecorder recorder = new SingleWriterRecorder(3);
        RECORDERS.add(recorder);
        return recorder;
    }

    /** Records one latency, clamped into the trackable range. Owner thread of {@code recorder} only. */
    public static void record(SingleWriterRecorder recorder, long nanos) {
        recorder.recordValue(Math.min(Math.max(nanos, 0), MAX_TRACKED_NANOS));
    }

    /** Sum of all task counters. */
    public static long delivered() {
        long sum = 0;
        for (TaskCounter counter : COUNTERS) {
            sum += counter.get();
        }
        return sum;
    }

    /** {@link System#nanoTime()} of the first tuple at the last component, or 0 while none has arrived. */
    public static long firstTupleNanos() {
        return FIRST_TUPLE_NANOS.get();
    }

    /** Drops what the recorders hold so far (the warm-up), so the next {@link #takeLatency()} covers only what follows. */
    public static void discardLatency() {
        for (SingleWriterRecorder recorder : RECORDERS) {
            recorder.getIntervalHistogram();
        }
    }

    /** Latencies recorded since the last take or discard, merged over all tasks, in nanoseconds. */
    public static Histogram takeLatency() {
        Histogram merged = new Histogram(3);
        for (SingleWriterRecorder recorder : RECORDERS) {
            merged.add(recorder.getIntervalHistogram());
        }
        return merged;
    }

    /** Reads the count an exporting JVM last wrote to {@code file}; 0 if it has written none yet. */
    public static long readExported(Path file) {
        try {
            String text = Files.readString(file).trim();
            return text.isEmpty() ? 0 : Long.parseLong(text);
        } catch (NoSuchFileException notYet) {
            return 0;
        } catch (IOException | NumberFormatException e) {
            throw new IllegalStateException("unreadable probe file " + file, e);
        }
    }

    /** Writes {@link #delivered()} to {@code file} every {@link #EXPORT_MILLIS} ms, replacing it whole each time. */
    private static void startExport(Path file) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Thread exporter = new Thread(() -> {
            try {
                while (true) {
                    Files.writeString(tmp, Long.toString(delivered()));
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    Thread.sleep(EXPORT_MILLIS);
                }
            } catch (InterruptedException | IOException e) {
                System.err.println("probe export to " + file + " stopped: " + e);
            }
        }, "microburst-bench-probe-export");
        exporter.setDaemon(true);
        exporter.start();
    }

    /** Forgets every counter, recorder and the first-tuple mark; for running several measurements in one JVM (tests). */
    public static void reset() {
        COUNTERS.clear();
        RECORDERS.clear();
        FIRST_TUPLE_NANOS.set(0);
    }
}
