package io.microburst.bench.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.bench.workload.LatencyKind;
import io.microburst.bench.workload.Workload;
import io.microburst.bench.workload.WorkloadCatalog;
import org.junit.jupiter.api.Test;

class RuntimeIdTest {
    @Test
    void theStormClusterRunsThroughputWorkloadsOnlyAndIsNotADefault() {
        for (Workload w : WorkloadCatalog.all()) {
            boolean throughputOnly = w.latency() == LatencyKind.NONE && w.stormTwin() == null;
            assertTrue(RuntimeId.STORM_CLUSTER_2W.supports(w) == throughputOnly, w.name());
        }
        assertTrue(RuntimeId.STORM_CLUSTER_2W.supports(WorkloadCatalog.byName("const-null").orElseThrow()));
        assertFalse(RuntimeId.defaults().contains(RuntimeId.STORM_CLUSTER_2W));
        assertTrue(RuntimeId.defaults().contains(RuntimeId.MICROBURST));
    }

    @Test
    void flinkRunsOnlyTheWorkloadsThatHaveADataStreamVersion() {
        for (String name : new String[] {"scoring-p1", "scoring-p2", "wordcount-ordinary-p1", "wordcount-ordinary-p2"}) {
            assertTrue(RuntimeId.FLINK.supports(WorkloadCatalog.byName(name).orElseThrow()), name);
        }
        for (String name : new String[] {"wordcount-p1", "const-null", "wordcount-ordinary-p1-static", "rollingsort"}) {
            assertFalse(RuntimeId.FLINK.supports(WorkloadCatalog.byName(name).orElseThrow()), name);
        }
        assertTrue(RuntimeId.defaults().contains(RuntimeId.FLINK));
    }
}
