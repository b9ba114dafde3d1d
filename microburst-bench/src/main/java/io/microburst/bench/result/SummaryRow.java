package io.microburst.bench.result;

/**
 * The median over rounds of one (workload, runtime), with its ratios to the baselines.
 *
 * @param workload workload name
 * @param family workload family
 * @param parallelism parallelism of every component
 * @param runtime runtime name
 * @param unit what throughput counts
 * @param roundsOk rounds that measured something
 * @param roundsRun rounds attempted (0 when the runtime cannot run the workload)
 * @param throughput median throughput
 * @param spread (max - min) / median of throughput over rounds
 * @param latency latency of the round with the median p99 (its CDF is the one plotted), or null
 * @param cpuCores median CPU cores used
 * @param threads median live threads
 * @param rssBytes median resident memory
 * @param startupMillis median start-up time
 * @param vsStorm throughput over Storm defaults' median
 * @param vsStormTuned throughput over Storm tuned's median
 * @param ofLoop throughput as a fraction of the one-thread loop ceiling
 * @param ofSpsc throughput as a fraction of the two-thread SPSC ceiling
 * @param error the last failure message when no round measured anything, else null
 * @param perCore throughput per CPU core used (median throughput over median cores)
 * @param vsP1 for a workload of a scaling family, throughput over the same runtime's at parallelism 1, else NaN
 */
public record SummaryRow(String workload, String family, int parallelism, String runtime, String unit, int roundsOk,
                         int roundsRun, double throughput, double spread, LatencySummary latency, double cpuCores,
                         double threads, double rssBytes, double startupMillis, double vsStorm, double vsStormTuned,
                         double ofLoop, double ofSpsc, String error, double perCore, double vsP1) {

    /** This row with its speed-up over parallelism 1 set. */
    SummaryRow withVsP1(double speedUp) {
        return new SummaryRow(workload, family, parallelism, runtime, unit, roundsOk, roundsRun, throughput, spread, latency,
            cpuCores, threads, rssBytes, startupMillis, vsStorm, vsStormTuned, ofLoop, ofSpsc, error, perCore, speedUp);
    }
}
