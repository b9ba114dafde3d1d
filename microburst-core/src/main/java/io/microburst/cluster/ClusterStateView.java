package io.microburst.cluster;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.storm.cluster.IStormClusterState;
import org.apache.storm.generated.Assignment;
import org.apache.storm.generated.StormBase;
import org.apache.storm.generated.TopologyStatus;
import org.apache.storm.generated.TopologySummary;

/**
 * The part of Storm's {@link IStormClusterState} that can be answered without ZooKeeper, for code that reads a local
 * cluster's state to follow topologies: storm-server's {@code Testing.completeTopology} finds a topology's id by name
 * and waits until its assignment is gone after the kill. Which topologies are active, their ids, their base
 * (name, status, launch time) and whether they are assigned come from the cluster's live summaries; a topology has an
 * (empty) assignment exactly while the cluster lists it. Every other method (heartbeats, supervisors, blobs,
 * credentials, writes) throws an {@link UnsupportedOperationException} naming it: there is no cluster state store.
 *
 * <p>Threading: any thread; it only reads the cluster's live summaries.
 */
public final class ClusterStateView implements InvocationHandler {
    private final Supplier<List<TopologySummary>> topologies;

    private ClusterStateView(Supplier<List<TopologySummary>> topologies) {
        this.topologies = topologies;
    }

    /** A view of the topologies {@code topologies} lists each time it is asked. */
    public static IStormClusterState of(Supplier<List<TopologySummary>> topologies) {
        return (IStormClusterState) Proxy.newProxyInstance(IStormClusterState.class.getClassLoader(),
            new Class<?>[] {IStormClusterState.class}, new ClusterStateView(topologies));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        int arity = args == null ? 0 : args.length;
        switch (name) {
            case "activeStorms":
                if (arity == 0) {
                    List<String> ids = new ArrayList<>();
                    for (TopologySummary s : topologies.get()) {
                        ids.add(s.get_id());
                    }
                    return ids;
                }
                break;
            case "stormId":
                if (arity == 1) {
                    TopologySummary s = byName((String) args[0]);
                    return s == null ? null : s.get_id();
                }
                break;
            case "getTopoId":
                if (arity == 1) {
                    TopologySummary s = byName((String) args[0]);
                    return Optional.ofNullable(s == null ? null : s.get_id());
                }
                break;
            case "stormBase":
                if (arity == 2) {
                    TopologySummary s = byId((String) args[0]);
                    return s == null ? null : base(s);
                }
                break;
            case "topologyBases":
                if (arity == 0) {
                    Map<String, StormBase> bases = new HashMap<>();
                    for (TopologySummary s : topologies.get()) {
                        bases.put(s.get_id(), base(s));
                    }
                    return bases;
                }
                break;
            case "assignmentInfo":
                if (arity == 2) {
                    return byId((String) args[0]) == null ? null : new Assignment("");
                }
                break;
            case "disconnect":
                return null;
            case "toString":
                return "Microburst cluster state view";
            case "hashCode":
                return System.identityHashCode(proxy);
            case "equals":
                return proxy == args[0];
            default:
                break;
        }
        throw new UnsupportedOperationException("Microburst keeps no cluster state (no ZooKeeper, Nimbus or "
            + "supervisors): IStormClusterState." + name + " is not available; the topologies' ids, bases and "
            + "assignment status are, and getClusterInfo and getTopologyInfo give the rest");
    }

    private TopologySummary byName(String topologyName) {
        for (TopologySummary s : topologies.get()) {
            if (s.get_name().equals(topologyName)) {
                return s;
            }
        }
        return null;
    }

    private TopologySummary byId(String id) {
        for (TopologySummary s : topologies.get()) {
            if (s.get_id().equals(id)) {
                return s;
            }
        }
        return null;
    }

    private static StormBase base(TopologySummary s) {
        StormBase base = new StormBase();
        base.set_name(s.get_name());
        base.set_status(status(s.get_status()));
        base.set_num_workers(s.get_num_workers());
        base.set_launch_time_secs((int) (System.currentTimeMillis() / 1000) - s.get_uptime_secs());
        return base;
    }

    private static TopologyStatus status(String status) {
        try {
            return TopologyStatus.valueOf(status);
        } catch (IllegalArgumentException | NullPointerException e) {
            return TopologyStatus.ACTIVE;
        }
    }
}
