package io.microburst.bench.runtime;

import io.microburst.bench.workload.CeilingWork;
import io.microburst.bench.workload.Workload;

/** Starts a workload on a runtime in this JVM. Stateless. */
public final class Runtimes {
    private Runtimes() {
    }

    /** A workload made ready to start on a runtime: its topology or hand-written work is built, nothing runs yet. */
    @FunctionalInterface
    public interface Launch {
        /** Starts it; the caller closes the result. */
        Deployment start() throws Exception;
    }

    /**
     * Builds what {@code workload} needs on {@code runtime} (topology, configuration, data) without starting anything, so
     * that start-up is timed from cluster construction, as the method asks. Throws {@link IllegalArgumentException} when
     * the runtime cannot run the workload (a ceiling that does not exist for it).
     */
    public static Launch prepare(RuntimeId runtime, Workload workload) {
        if (!runtime.supports(workload)) {
            throw new IllegalArgumentException(runtime.id() + " cannot run " + workload.name());
        }
        return switch (runtime) {
            case MICROBURST, STORM, STORM_TUNED -> ClusterDeployment.prepare(runtime, workload);
            case CEILING_LOOP -> {
                CeilingWork work = workload.ceilingWork();
                yield () -> LoopCeiling.start(work);
            }
            case STORM_CLUSTER_2W -> StormClusterDeployment.prepare(workload);
            case FLINK -> FlinkRuntime.prepare(workload);
            case CEILING_SPSC -> {
                CeilingWork work = workload.ceilingWork();
                yield () -> SpscCeiling.start(work);
            }
        };
    }
}
