package io.microburst.bench.run;

import io.microburst.bench.runtime.RuntimeId;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Estimates how long the remaining runs will take: warm-up plus window plus a per-runtime overhead (JVM start, cluster
 * start-up, shutdown), first guessed, then the mean of what was observed. Not thread-safe.
 */
public final class EtaEstimator {
    private final double windowSeconds;
    private final Map<RuntimeId, double[]> observed = new EnumMap<>(RuntimeId.class); // {sum, count}

    /** @param windowSeconds warm-up plus measurement of one run */
    public EtaEstimator(double windowSeconds) {
        this.windowSeconds = windowSeconds;
    }

    /** Records that a run on {@code runtime} took {@code seconds} in all. */
    public void observe(RuntimeId runtime, double seconds) {
        double[] sumCount = observed.computeIfAbsent(runtime, r -> new double[2]);
        sumCount[0] += Math.max(0, seconds - windowSeconds);
        sumCount[1]++;
    }

    /** Expected length of one run on {@code runtime}. */
    public double expectedSeconds(RuntimeId runtime) {
        double[] sumCount = observed.get(runtime);
        double overhead = sumCount == null ? guessOverhead(runtime) : sumCount[0] / sumCount[1];
        return windowSeconds + overhead;
    }

    /** Expected time for all of {@code pending}. */
    public double remainingSeconds(List<RunSpec> pending) {
        double total = 0;
        for (RunSpec spec : pending) {
            if (spec.runtime().supports(spec.workload())) {
                total += expectedSeconds(spec.runtime());
            }
        }
        return total;
    }

    static double guessOverhead(RuntimeId runtime) {
        return switch (runtime) {
            case STORM, STORM_TUNED -> 14; // ZooKeeper, Nimbus, supervisor, worker start; slot shutdown
            case MICROBURST -> 3;
            case FLINK -> 5; // a MiniCluster: RPC services, a TaskManager, job submission
            case CEILING_LOOP, CEILING_SPSC -> 1;
            case STORM_CLUSTER_2W -> 45; // a cluster of its own: daemons, two worker JVMs, kill and stop
        };
    }
}
