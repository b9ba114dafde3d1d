package io.microburst.bench.runtime;

import io.microburst.bench.workload.Workload;

/** Starts a workload on a runtime in this JVM. Stateless. */
public final class Runtimes {
    private Runtimes() {
    }

    /**
     * Starts {@code workload} on {@code runtime}; the caller closes the result. Throws {@link IllegalArgumentException} when
     * the runtime cannot run the workload (a ceiling that does not exist for it).
     */
    public static Deployment start(RuntimeId runtime, Workload workload) throws Exception {
        if (!runtime.supports(workload)) {
            throw new IllegalArgumentException(runtime.id() + " cannot run " + workload.name());
        }
        return switch (runtime) {
            case MICROBURST, STORM, STORM_TUNED -> ClusterDeployment.start(runtime, workload);
            case CEILING_LOOP -> LoopCeiling.start(workload.ceilingWork());
            case CEILING_SPSC -> SpscCeiling.start(workload.ceilingWork());
        };
    }
}
