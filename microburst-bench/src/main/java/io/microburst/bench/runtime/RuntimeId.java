package io.microburst.bench.runtime;

import io.microburst.bench.workload.LatencyKind;
import io.microburst.bench.workload.Workload;
import java.util.Arrays;
import java.util.List;

/** The runtimes the bench compares, by the names {@code --runtimes} takes. */
public enum RuntimeId {
    /** Microburst on its defaults. */
    MICROBURST("microburst", "Microburst"),
    /** Apache Storm 2.8.3 LocalCluster on its defaults. */
    STORM("storm", "Storm defaults"),
    /** Apache Storm 2.8.3 LocalCluster with its own storm-perf settings (busy wait for latency workloads). */
    STORM_TUNED("storm-tuned", "Storm tuned"),
    /**
     * Apache Flink 1.20's local execution (a MiniCluster in the run's JVM) running the workload's own DataStream version,
     * on Flink's defaults; only workloads that have one. Its jars come from the separately built
     * {@code microburst-bench-flink} module and are given to its child JVMs alone (see {@link FlinkRuntime}).
     */
    FLINK("flink", "Flink 1.20 local"),
    /** The workload's work in one hand-written loop on one thread: the fusion ceiling. */
    CEILING_LOOP("ceiling-loop", "1-thread loop"),
    /** Spout work and bolt work on two threads joined by one JCTools SPSC queue: the messaging ceiling. */
    CEILING_SPSC("ceiling-spsc", "2 threads + SPSC"),
    /**
     * A real Apache Storm 2.8.3 cluster on this machine (ZooKeeper, Nimbus, a Supervisor) running the topology in two
     * worker processes, on Storm's defaults: the cost of going distributed. Not in the default set (each run starts a
     * cluster, about half a minute); throughput workloads only (the latency probes are in-process).
     */
    STORM_CLUSTER_2W("storm-cluster-2w", "Storm cluster 2 workers");

    private final String id;
    private final String label;

    RuntimeId(String id, String label) {
        this.id = id;
        this.label = label;
    }

    /** The name on the command line and in results. */
    public String id() {
        return id;
    }

    /** A short human name for tables and charts. */
    public String label() {
        return label;
    }

    /** Whether this runtime can run {@code workload} (the ceilings exist only for some workloads). */
    public boolean supports(Workload workload) {
        return switch (this) {
            case MICROBURST -> true;
            case STORM, STORM_TUNED -> workload.stormTwin() == null;
            case FLINK -> workload.stormTwin() == null && workload.flinkJob() != null;
            case CEILING_LOOP -> workload.hasCeiling();
            case CEILING_SPSC -> workload.hasSpscCeiling();
            case STORM_CLUSTER_2W -> workload.stormTwin() == null && workload.latency() == LatencyKind.NONE;
        };
    }

    /** Whether a bench without {@code --runtimes} runs this one. */
    public boolean inDefaultSet() {
        return this != STORM_CLUSTER_2W;
    }

    /** The runtimes a bench without {@code --runtimes} compares, in order. */
    public static List<RuntimeId> defaults() {
        return Arrays.stream(values()).filter(RuntimeId::inDefaultSet).toList();
    }

    /** The runtime called {@code id}; throws {@link IllegalArgumentException} listing the known names otherwise. */
    public static RuntimeId of(String id) {
        for (RuntimeId runtime : values()) {
            if (runtime.id.equals(id)) {
                return runtime;
            }
        }
        throw new IllegalArgumentException("unknown runtime " + id + "; known: " + String.join(",", ids()));
    }

    /** All runtime names, in default order. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(RuntimeId::id).toList();
    }
}
