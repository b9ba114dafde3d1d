package io.microburst.bench.runtime;

import io.microburst.bench.workload.Workload;

/**
 * What the separately built {@code microburst-bench-flink} module provides (found with {@link java.util.ServiceLoader} in
 * a Flink run's JVM): the DataStream versions of the workloads that have one ({@link Workload#flinkJob()}). Implementations
 * are stateless; called from the run's main thread.
 */
public interface FlinkJobs {
    /**
     * Builds the Flink job of {@code workload} at the workload's parallelism without starting it; the launch starts
     * Flink's local execution. Throws {@link IllegalArgumentException} for a job name it does not know.
     */
    Runtimes.Launch prepare(Workload workload);
}
