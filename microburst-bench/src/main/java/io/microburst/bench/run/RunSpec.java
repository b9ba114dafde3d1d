package io.microburst.bench.run;

import io.microburst.bench.runtime.RuntimeId;
import io.microburst.bench.workload.Workload;

/**
 * One run of the plan.
 *
 * @param workload what runs
 * @param runtime where it runs
 * @param round 1-based round
 */
public record RunSpec(Workload workload, RuntimeId runtime, int round) {
    /** A short name for file names and progress lines. */
    public String key() {
        return workload.name() + "." + runtime.id() + ".r" + round;
    }
}
