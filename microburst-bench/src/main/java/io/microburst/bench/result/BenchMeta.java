package io.microburst.bench.result;

import java.util.List;

/**
 * How and where a bench ran, written beside the results.
 *
 * @param started start time, ISO-8601 UTC
 * @param finished end time, ISO-8601 UTC, or null while running
 * @param cores processors available to the JVM
 * @param java Java runtime version
 * @param os operating system name and version
 * @param rounds rounds per (workload, runtime)
 * @param warmupSeconds warm-up before each measurement
 * @param measureSeconds length of each measurement window
 * @param heap JVM flags every child got
 * @param runtimes runtimes compared
 * @param workloads workloads run
 * @param quick whether this was a {@code --quick} bench
 */
public record BenchMeta(String started, String finished, int cores, String java, String os, int rounds,
                        double warmupSeconds, double measureSeconds, String heap, List<String> runtimes,
                        List<String> workloads, boolean quick) {
    public BenchMeta {
        runtimes = List.copyOf(runtimes);
        workloads = List.copyOf(workloads);
    }

    /** The same, finished at {@code when}. */
    public BenchMeta finishedAt(String when) {
        return new BenchMeta(started, when, cores, java, os, rounds, warmupSeconds, measureSeconds, heap, runtimes, workloads,
            quick);
    }
}
