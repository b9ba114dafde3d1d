package io.microburst.bench.workload;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.storm.generated.StormTopology;

/**
 * One benchmark workload: a topology written once against the Storm API (with its configuration), and optionally the same
 * work written by hand for the ceilings. Immutable; {@link #topology()} and {@link #config()} build fresh objects each call.
 */
public final class Workload {
    private final String name;
    private final String family;
    private final int parallelism;
    private final String description;
    private final String unit;
    private final LatencyKind latency;
    private final Supplier<StormTopology> topology;
    private final Map<String, Object> config;
    private final Supplier<CeilingWork> ceiling;
    private final boolean spscCeiling;
    private final String stormTwin;
    private final int minWarmupSeconds;
    private final String flinkJob;

    private Workload(Builder b) {
        this.name = Objects.requireNonNull(b.name);
        this.family = b.family == null ? b.name : b.family;
        this.parallelism = b.parallelism;
        this.description = Objects.requireNonNull(b.description);
        this.unit = b.unit;
        this.latency = b.latency;
        this.topology = Objects.requireNonNull(b.topology);
        this.config = Map.copyOf(b.config);
        this.ceiling = b.ceiling;
        this.spscCeiling = b.spscCeiling;
        this.stormTwin = b.stormTwin;
        this.minWarmupSeconds = b.minWarmupSeconds;
        this.flinkJob = b.flinkJob;
    }

    /**
     * The name of this workload's Flink DataStream version (run by the bench's Flink runtime with this workload's
     * parallelism), or null when it has none. Variants ({@link #toBuilder}) do not inherit it.
     */
    public String flinkJob() {
        return flinkJob;
    }

    /**
     * The least warm-up this workload needs, whatever {@code --warmup} says (a runtime that adapts must have made its
     * decisions before the window opens); 0 for most.
     */
    public int minWarmupSeconds() {
        return minWarmupSeconds;
    }

    /**
     * For a variant that differs from another workload only in Microburst's settings, that workload's name: Storm would
     * run exactly the same thing, so Storm does not run this one and its ratios use the twin's Storm figures. Else null.
     */
    public String stormTwin() {
        return stormTwin;
    }

    public static Builder named(String name) {
        return new Builder(name);
    }

    /** A builder for a variant of this workload called {@code newName}: everything copied but the name and family. */
    public Builder toBuilder(String newName) {
        Builder b = new Builder(newName);
        b.parallelism = parallelism;
        b.description = description;
        b.unit = unit;
        b.latency = latency;
        b.topology = topology;
        b.config.putAll(config);
        b.ceiling = ceiling;
        b.spscCeiling = spscCeiling;
        b.minWarmupSeconds = minWarmupSeconds;
        return b;
    }

    /** Unique name, used by {@code --only} and in results. */
    public String name() {
        return name;
    }

    /** Name shared by the variants that differ only in parallelism (one curve in the scaling chart). */
    public String family() {
        return family;
    }

    /** Parallelism of every component. */
    public int parallelism() {
        return parallelism;
    }

    public String description() {
        return description;
    }

    /** What the throughput counts, e.g. "tuples/s". */
    public String unit() {
        return unit;
    }

    public LatencyKind latency() {
        return latency;
    }

    /** Whether latency is the point of this workload (Storm's tuned profile then uses its busy-wait settings). */
    public boolean latencySensitive() {
        return latency == LatencyKind.END_TO_END;
    }

    /** A freshly built topology. */
    public StormTopology topology() {
        return topology.get();
    }

    /** A fresh, mutable copy of the topology configuration the workload itself sets (acking, max spout pending). */
    public Map<String, Object> config() {
        return new HashMap<>(config);
    }

    /** Whether the hand-written ceilings can run this workload. */
    public boolean hasCeiling() {
        return ceiling != null;
    }

    /** Whether the two-thread ceiling can run this workload. */
    public boolean hasSpscCeiling() {
        return ceiling != null && spscCeiling;
    }

    /** Fresh hand-written work; throws if {@link #hasCeiling()} is false. */
    public CeilingWork ceilingWork() {
        if (ceiling == null) {
            throw new IllegalStateException(name + " has no hand-written ceiling");
        }
        return ceiling.get();
    }

    /** Builds a {@link Workload}. */
    public static final class Builder {
        private final String name;
        private String family;
        private int parallelism = 1;
        private String description;
        private String unit = "tuples/s";
        private LatencyKind latency = LatencyKind.NONE;
        private Supplier<StormTopology> topology;
        private final Map<String, Object> config = new HashMap<>();
        private Supplier<CeilingWork> ceiling;
        private boolean spscCeiling;
        private String stormTwin;
        private int minWarmupSeconds;
        private String flinkJob;

        private Builder(String name) {
            this.name = name;
        }

        public Builder family(String family, int parallelism) {
            this.family = family;
            this.parallelism = parallelism;
            return this;
        }

        public Builder description(String description) {
            this.description = description;
            return this;
        }

        public Builder unit(String unit) {
            this.unit = unit;
            return this;
        }

        public Builder latency(LatencyKind latency) {
            this.latency = latency;
            return this;
        }

        public Builder topology(Supplier<StormTopology> topology) {
            this.topology = topology;
            return this;
        }

        public Builder config(String key, Object value) {
            this.config.put(key, value);
            return this;
        }

        /**
         * @param ceiling makes the hand-written work
         * @param splittable whether splitting it across two threads means anything (not for a spout-only workload)
         */
        public Builder ceiling(Supplier<CeilingWork> ceiling, boolean splittable) {
            this.ceiling = ceiling;
            this.spscCeiling = splittable;
            return this;
        }

        /** Marks this workload as a Microburst-only variant of {@code twin} (see {@link Workload#stormTwin()}). */
        public Builder stormTwin(String twin) {
            this.stormTwin = twin;
            return this;
        }

        /** The least warm-up of this workload (see {@link Workload#minWarmupSeconds()}). */
        public Builder minWarmupSeconds(int seconds) {
            this.minWarmupSeconds = seconds;
            return this;
        }

        /** Names this workload's Flink DataStream version (see {@link Workload#flinkJob()}). */
        public Builder flinkJob(String job) {
            this.flinkJob = job;
            return this;
        }

        public Workload build() {
            return new Workload(this);
        }
    }
}
