package io.microburst.localcluster;

import io.microburst.MicroburstCluster;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.ILocalCluster;

/**
 * Which {@link MicroburstCluster} runs the topologies of each open {@code LocalCluster}: {@code Testing} and
 * {@code TrackedTopology} ask it, rather than the facade, whether the cluster is idle, since Storm's public signatures
 * of those classes leave no room for the question. Weak, so that a facade never closed is not kept alive.
 *
 * <p>Thread-safe.
 */
public final class Engines {
    private static final Map<ILocalCluster, MicroburstCluster> ENGINES = Collections.synchronizedMap(new WeakHashMap<>());
    private static final AtomicInteger REGISTERED = new AtomicInteger();

    private Engines() {
    }

    /** Records that {@code engine} runs {@code facade}'s topologies, until {@link #forget(ILocalCluster)}. */
    public static void register(ILocalCluster facade, MicroburstCluster engine) {
        ENGINES.put(facade, engine);
        REGISTERED.incrementAndGet();
    }

    /** How many clusters were registered so far in this class loader (each {@code new LocalCluster()} is one). */
    public static int registered() {
        return REGISTERED.get();
    }

    /** The clusters registered and not closed yet (their facades, as the user's code holds them). */
    public static List<ILocalCluster> open() {
        synchronized (ENGINES) {
            return new ArrayList<>(ENGINES.keySet());
        }
    }

    public static void forget(ILocalCluster facade) {
        ENGINES.remove(facade);
    }

    /** The engine of {@code cluster}: itself when it is one; null for any other cluster. */
    public static MicroburstCluster of(ILocalCluster cluster) {
        if (cluster instanceof MicroburstCluster engine) {
            return engine;
        }
        return ENGINES.get(cluster);
    }
}
