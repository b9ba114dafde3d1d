package io.microburst.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import io.microburst.runtime.topology.TopologyRuntime;
import org.apache.storm.generated.NotAliveException;

/**
 * The topologies a cluster lists, by name and by id. A lookup that finds nothing throws Storm's
 * {@link NotAliveException} naming what was asked for; as with Storm's LocalCluster, a name is accepted where an id is
 * asked for.
 *
 * <p>Threading: any thread (concurrent maps); the cluster lists a topology under its {@link OpenGuard}.
 */
public final class TopologyTable {
    private final Map<String, TopologyRuntime> byName = new ConcurrentHashMap<>();
    private final Map<String, TopologyRuntime> byId = new ConcurrentHashMap<>();
    /** The ids of earlier versions of upgraded topologies, to the name their current version is listed under. */
    private final Map<String, String> formerIds = new ConcurrentHashMap<>();

    /** The topology listed under {@code name}, running or stopped, or null. */
    public TopologyRuntime listed(String name) {
        return name == null ? null : byName.get(name);
    }

    public void add(TopologyRuntime runtime) {
        byName.put(runtime.plan().name(), runtime);
        byId.put(runtime.plan().stormId(), runtime);
    }

    public void forget(TopologyRuntime runtime) {
        if (byName.remove(runtime.plan().name(), runtime)) {
            formerIds.values().removeIf(runtime.plan().name()::equals);
        }
        byId.remove(runtime.plan().stormId(), runtime);
    }

    /**
     * Lists {@code next}, a new version of {@code previous}, under its name in its place; the ids of the earlier
     * versions keep finding the topology ({@link #byId}).
     */
    public void replace(TopologyRuntime previous, TopologyRuntime next) {
        String name = next.plan().name();
        byId.put(next.plan().stormId(), next);
        byName.put(name, next);
        byId.remove(previous.plan().stormId(), previous);
        formerIds.put(previous.plan().stormId(), name);
    }

    /** A snapshot of every listed topology. */
    public List<TopologyRuntime> all() {
        return new ArrayList<>(byName.values());
    }

    /**
     * Stops every listed topology at once (without waiting for work in flight), unlists it, then waits for its
     * short-lived kill and rebalance threads.
     */
    public void stopAll() {
        List<TopologyRuntime> stopped = all();
        for (TopologyRuntime r : stopped) {
            r.stopNow();
            forget(r);
        }
        for (TopologyRuntime r : stopped) {
            r.awaitHelperThreads();
        }
    }

    /** The executor threads running now, over every listed topology. */
    public int liveExecutorThreads() {
        int n = 0;
        for (TopologyRuntime r : all()) {
            n += r.liveExecutorThreads();
        }
        return n;
    }

    public TopologyRuntime byName(String name) throws NotAliveException {
        TopologyRuntime r = listed(name);
        if (r == null) {
            throw new NotAliveException("No topology named '" + name + "' is running");
        }
        return r;
    }

    public TopologyRuntime byId(String id) throws NotAliveException {
        TopologyRuntime r = id == null ? null : byId.get(id);
        if (r == null) {
            r = listed(id);
        }
        if (r == null && id != null && formerIds.containsKey(id)) {
            r = listed(formerIds.get(id));
        }
        if (r == null) {
            throw new NotAliveException("No topology with id '" + id + "' is running");
        }
        return r;
    }
}
