package io.microburst.bench.run;

import io.microburst.bench.runtime.RuntimeId;
import io.microburst.bench.workload.Workload;
import java.util.ArrayList;
import java.util.List;

/** The order runs happen in. Stateless. */
public final class BenchPlan {
    private BenchPlan() {
    }

    /**
     * Every (workload, runtime, round), rounds outermost and runtimes innermost: A, B, C, A, B, C... so slow drift of a
     * shared machine touches every runtime alike, and a first complete round of every workload is available early.
     */
    public static List<RunSpec> of(List<Workload> workloads, List<RuntimeId> runtimes, int rounds) {
        List<RunSpec> plan = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (Workload workload : workloads) {
                for (RuntimeId runtime : runtimes) {
                    plan.add(new RunSpec(workload, runtime, round));
                }
            }
        }
        return plan;
    }
}
