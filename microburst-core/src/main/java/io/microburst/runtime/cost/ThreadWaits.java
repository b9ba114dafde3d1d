package io.microburst.runtime.cost;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How long the calling thread has waited for a core: runnable, but not running, because other threads (other
 * processes, the JIT's compilers at start) had the cores. Linux counts it per thread ({@code schedstat}'s second
 * field); elsewhere it is unknown. A placement window leaves these waits out of a thread's work: its tasks' sampled
 * execute times leave them out too (a sample that long is dropped as a pause), and a thread that blocks in user code
 * (a sleep, a call to a service) is waiting for that, not for a core, so its blocked time stays work. Read once a
 * window and at the start and end of a slow streak, never per tuple.
 *
 * <p>Threading: any thread; each call reads the caller's own figure.
 */
public final class ThreadWaits {
    private static final Path SCHEDSTAT = Path.of("/proc/thread-self/schedstat");
    private static final boolean SUPPORTED = read() >= 0;

    private ThreadWaits() {
    }

    /** The calling thread's total time waiting for a core so far, in nanoseconds, or -1 where it is not known. */
    public static long currentNanos() {
        return SUPPORTED ? read() : -1;
    }

    private static long read() {
        try {
            return parse(new String(Files.readAllBytes(SCHEDSTAT), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The run-queue wait of a {@code schedstat} line ("time on a core, time waiting for one, slices"), or -1. */
    static long parse(String schedstat) {
        String[] fields = schedstat.trim().split("\\s+");
        if (fields.length < 2) {
            return -1;
        }
        try {
            return Long.parseLong(fields[1]);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
