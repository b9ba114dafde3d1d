package io.microburst.bench.result;

/**
 * What one (workload, runtime, round) run measured. Immutable.
 *
 * @param workload workload name
 * @param family workload family (one curve of the scaling chart)
 * @param parallelism parallelism of every component
 * @param runtime runtime name
 * @param round 1-based round
 * @param status how the run ended
 * @param error why it failed, or null
 * @param unit what throughput counts, e.g. "words/s"
 * @param throughput tuples per second at the last component over the measurement window
 * @param delivered tuples counted at the last component over the window
 * @param windowSeconds length of the measurement window
 * @param latency latency over the window, or null where none is measured
 * @param cpuCores process CPU time over wall time during the window
 * @param threads live threads at the end of the window
 * @param rssBytes resident memory at the end of the window
 * @param startupMillis from constructing the cluster (or starting the ceiling) to the first tuple at the last component
 * @param log file holding the child's output, or null
 */
public record RunResult(String workload, String family, int parallelism, String runtime, int round, RunStatus status,
                        String error, String unit, double throughput, long delivered, double windowSeconds,
                        LatencySummary latency, double cpuCores, int threads, long rssBytes, double startupMillis,
                        String log) {

    /** A run that produced no measurement. */
    public static RunResult notMeasured(String workload, String family, int parallelism, String runtime, int round,
                                        RunStatus status, String why, String unit) {
        return new RunResult(workload, family, parallelism, runtime, round, status, why, unit, Double.NaN, 0, 0, null,
            Double.NaN, 0, -1, Double.NaN, null);
    }

    /** Whether this run measured something. */
    public boolean ok() {
        return status == RunStatus.OK;
    }

    /** The same result with the child's log file recorded. */
    public RunResult withLog(String logFile) {
        return new RunResult(workload, family, parallelism, runtime, round, status, error, unit, throughput, delivered,
            windowSeconds, latency, cpuCores, threads, rssBytes, startupMillis, logFile);
    }
}
