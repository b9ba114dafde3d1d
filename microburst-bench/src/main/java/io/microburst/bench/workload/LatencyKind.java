package io.microburst.bench.workload;

/** Which latency a workload measures, if any. */
public enum LatencyKind {
    /** No latency is measured. */
    NONE("none"),
    /** Spout stamp to bolt receipt, recorded by the bolt. */
    END_TO_END("end-to-end"),
    /** Emit to ack, recorded by the spout in its ack callback. */
    COMPLETE("complete");

    private final String label;

    LatencyKind(String label) {
        this.label = label;
    }

    /** The name used in results files. */
    public String label() {
        return label;
    }
}
