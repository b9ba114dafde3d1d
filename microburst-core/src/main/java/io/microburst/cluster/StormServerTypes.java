package io.microburst.cluster;

import org.apache.storm.generated.StormTopology;

/**
 * The storm-server types a cluster takes or makes as Storm's {@code LocalCluster} does, reached by name because
 * microburst-core does not depend on storm-server: a {@code TrackedTopology} to submit, a
 * {@code StormMetricsRegistry} for {@code LocalDRPC}.
 *
 * <p>Threading: stateless; any thread.
 */
public final class StormServerTypes {
    /** storm-server's tracked topology, which the cluster's {@code submitTopology(String, Map, Object)} takes. */
    private static final String TRACKED_TOPOLOGY = "org.apache.storm.testing.TrackedTopology";
    private static final String METRICS_REGISTRY = "org.apache.storm.metric.StormMetricsRegistry";

    private StormServerTypes() {
    }

    /**
     * The topology of a {@code StormTopology} or of a storm-server {@code TrackedTopology} (by its getTopology()).
     *
     * @throws IllegalArgumentException naming the type when {@code topology} is neither
     */
    public static StormTopology topologyOf(Object topology) {
        if (topology == null || topology instanceof StormTopology) {
            return (StormTopology) topology;
        }
        for (Class<?> c = topology.getClass(); c != null; c = c.getSuperclass()) {
            if (TRACKED_TOPOLOGY.equals(c.getName())) {
                try {
                    return (StormTopology) c.getMethod("getTopology").invoke(topology);
                } catch (ReflectiveOperationException | ClassCastException e) {
                    throw new IllegalArgumentException("Cannot read the topology of " + topology.getClass().getName()
                        + " through " + TRACKED_TOPOLOGY + ".getTopology(): " + e, e);
                }
            }
        }
        throw new IllegalArgumentException("Cannot submit a " + topology.getClass().getName() + ": submitTopology takes a "
            + StormTopology.class.getName() + " or a " + TRACKED_TOPOLOGY);
    }

    /**
     * A new {@code StormMetricsRegistry}, loaded with {@code loader}: the cluster's {@code getMetricRegistry()}, for
     * {@code new LocalDRPC(cluster.getMetricRegistry())}, makes one per cluster.
     *
     * @throws IllegalStateException when storm-server is not on the class path
     */
    public static Object newMetricsRegistry(ClassLoader loader) {
        try {
            return Class.forName(METRICS_REGISTRY, true, loader).getConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException("getMetricRegistry() makes a " + METRICS_REGISTRY
                + ", which is in org.apache.storm:storm-server (as LocalDRPC is): add it to the class path", e);
        }
    }
}
