package io.microburst.server.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.OwnerResourceSummary;
import org.apache.storm.generated.SupervisorPageInfo;
import org.apache.storm.generated.SupervisorSummary;
import org.apache.storm.generated.TopologyHistoryInfo;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.thrift.TException;

/**
 * The Thrift form of the cluster-wide answers Storm's UI asks Nimbus for ({@code getSupervisorPageInfo},
 * {@code getTopologyHistory}, {@code getOwnerResourceSummaries}), with the same truths as the REST API
 * ({@link ClusterApi}): one supervisor, its workers one per running topology, owners grouped from the topologies,
 * no resource guarantees (Storm's -1). Stateless.
 */
public final class ClusterPageInfos {
    private ClusterPageInfos() {
    }

    /** The only supervisor and its workers; an id or host naming another one is unknown. */
    public static SupervisorPageInfo supervisor(Nimbus.Iface nimbus, String id, String host) throws TException {
        ClusterSummary cluster = nimbus.getClusterInfo();
        SupervisorSummary only = cluster.get_supervisors().get(0);
        if (id != null && !id.isEmpty() ? !id.equals(only.get_supervisor_id())
            : host != null && !host.isEmpty() && !host.equals(only.get_host())) {
            throw new NotAliveException("no supervisor " + (id != null && !id.isEmpty() ? "with id '" + id : "on host '"
                + host) + "': this server's only supervisor is '" + only.get_supervisor_id() + "' on '"
                + only.get_host() + "'");
        }
        SupervisorPageInfo page = new SupervisorPageInfo();
        page.set_supervisor_summaries(List.of(only));
        page.set_worker_summaries(new ArrayList<>());
        for (TopologySummary t : cluster.get_topologies()) {
            page.get_worker_summaries().addAll(PageInfos.workers(nimbus.getTopologyInfo(t.get_id()), t));
        }
        return page;
    }

    /** The ids of the running topologies (killed ones are not remembered). */
    public static TopologyHistoryInfo history(Nimbus.Iface nimbus) throws TException {
        List<String> ids = new ArrayList<>();
        for (TopologySummary t : nimbus.getClusterInfo().get_topologies()) {
            ids.add(t.get_id());
        }
        return new TopologyHistoryInfo(ids);
    }

    /** Per owner (or the one named), its topologies' totals. */
    public static List<OwnerResourceSummary> owners(Nimbus.Iface nimbus, String owner) throws TException {
        Map<String, OwnerResourceSummary> byOwner = new LinkedHashMap<>();
        for (TopologySummary t : nimbus.getClusterInfo().get_topologies()) {
            if (owner != null && !owner.isEmpty() && !owner.equals(t.get_owner())) {
                continue;
            }
            OwnerResourceSummary s = byOwner.computeIfAbsent(t.get_owner(), o -> {
                OwnerResourceSummary fresh = new OwnerResourceSummary(o);
                fresh.set_total_topologies(0);
                fresh.set_total_executors(0);
                fresh.set_total_workers(0);
                fresh.set_total_tasks(0);
                fresh.set_memory_guarantee(-1);
                fresh.set_cpu_guarantee(-1);
                fresh.set_isolated_node_guarantee(0);
                return fresh;
            });
            s.set_total_topologies(s.get_total_topologies() + 1);
            s.set_total_executors(s.get_total_executors() + t.get_num_executors());
            s.set_total_workers(s.get_total_workers() + t.get_num_workers());
            s.set_total_tasks(s.get_total_tasks() + t.get_num_tasks());
        }
        return new ArrayList<>(byOwner.values());
    }
}
