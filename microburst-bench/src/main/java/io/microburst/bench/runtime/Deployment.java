package io.microburst.bench.runtime;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.probe.ProcessStats;

/**
 * A workload running on one runtime; {@link #close()} stops it and everything it started. The readings default to this
 * JVM's probes and process, where every in-process runtime runs its tasks; a runtime with processes of its own (a Storm
 * cluster) reads them there instead.
 */
public interface Deployment extends AutoCloseable {
    @Override
    void close() throws Exception;

    /** Tuples counted at the last component so far. */
    default long delivered() {
        return Probes.delivered();
    }

    /** {@link System#nanoTime()} in this JVM when the first tuple reached the last component (as seen here), or 0. */
    default long firstTupleNanos() {
        return Probes.firstTupleNanos();
    }

    /** CPU time used so far by the processes the runtime runs in, in nanoseconds, or -1 if unknown. */
    default long cpuNanos() {
        return ProcessStats.processCpuNanos();
    }

    /** Live threads of the processes the runtime runs in. */
    default int threads() {
        return ProcessStats.liveThreads();
    }

    /** Resident memory of the processes the runtime runs in, in bytes, or -1 if unknown. */
    default long residentBytes() {
        return ProcessStats.residentBytes();
    }
}
