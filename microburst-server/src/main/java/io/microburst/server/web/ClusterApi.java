package io.microburst.server.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NimbusSummary;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.SupervisorSummary;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.VersionInfo;

/**
 * The cluster-wide answers of Storm's UI REST API, with this machine's truth where Storm describes a cluster:
 * {@code cluster/configuration}, {@code cluster/summary}, {@code nimbus/summary} (one Nimbus, the leader),
 * {@code supervisor/summary} and {@code supervisor?id=|host=} (one supervisor: this process; a slot per running
 * topology, since each runs as one worker), {@code history/summary} (the running topologies) and {@code owner-resources[/OWNER]} (topologies
 * grouped by owner; no resource guarantees exist, so they answer as Storm's UI does without one: {@code "N/A"}, and
 * {@code -1} isolated nodes). Memory is in MB and CPU in
 * Storm's percent of a core: totals are the machine's (physical memory, cores × 100), use is this process' (heap in
 * use, process CPU load). The server's configuration comes from {@link ConfViews}. Stateless apart from it;
 * thread-safe.
 */
final class ClusterApi {
    private final Nimbus.Iface nimbus;
    private final MachineResources machine;
    private final ConfViews confs;

    ClusterApi(Nimbus.Iface nimbus, MachineResources machine, ConfViews confs) {
        this.nimbus = nimbus;
        this.machine = machine;
        this.confs = confs;
    }

    Map<String, Object> configuration() throws TException {
        return new TreeMap<>(confs.server());
    }

    Map<String, Object> summary() throws TException {
        ClusterSummary cluster = nimbus.getClusterInfo();
        int executors = 0;
        int tasks = 0;
        for (TopologySummary t : cluster.get_topologies()) {
            executors += t.get_num_executors();
            tasks += t.get_num_tasks();
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("stormVersion", VersionInfo.getVersion());
        json.put("stormVersionInfo", versionInfo());
        json.put("supervisors", cluster.get_supervisors_size());
        json.put("topologies", cluster.get_topologies_size());
        json.put("slotsTotal", slots(cluster));
        json.put("slotsUsed", cluster.get_topologies_size());
        json.put("slotsFree", slots(cluster) - cluster.get_topologies_size());
        json.put("executorsTotal", executors);
        json.put("tasksTotal", tasks);
        json.put("schedulerDisplayResource", true);
        double totalMem = machine.totalMemoryMb();
        double totalCpu = machine.totalCpu();
        double usedMem = machine.usedMemoryMb();
        double usedCpu = machine.usedCpu();
        json.put("totalMem", totalMem);
        json.put("totalCpu", totalCpu);
        json.put("availMem", totalMem - usedMem);
        json.put("availCpu", totalCpu - usedCpu);
        json.put("fragmentedMem", 0.0);
        json.put("fragmentedCpu", 0.0);
        json.put("availGenerics", "");
        json.put("totalGenerics", "");
        Map<String, Object> conf = confs.server();
        json.put("bugtracker-url", conf.get("ui.project.bugtracker.url"));
        json.put("central-log-url", conf.get("ui.central.logging.url"));
        json.put("memAssignedPercentUtil", StormJson.decimal(totalMem > 0 ? 100 * usedMem / totalMem : 0));
        json.put("cpuAssignedPercentUtil", StormJson.decimal(totalCpu > 0 ? 100 * usedCpu / totalCpu : 0));
        json.put("nimbusUptimeSeconds", cluster.get_nimbuses().isEmpty() ? 0 : cluster.get_nimbuses().get(0).get_uptime_secs());
        return json;
    }

    /** The build of storm-client this server runs, as Storm's {@code stormVersionInfo}. */
    private static Map<String, Object> versionInfo() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("version", VersionInfo.getVersion());
        json.put("revision", VersionInfo.getRevision());
        json.put("branch", VersionInfo.getBranch());
        json.put("date", VersionInfo.getDate());
        json.put("srcChecksum", VersionInfo.getSrcChecksum());
        return json;
    }

    /** A worker slot for every running topology, and one free when none runs (a topology can always start). */
    private static int slots(ClusterSummary cluster) {
        return Math.max(1, cluster.get_topologies_size());
    }

    Map<String, Object> nimbusSummary() throws TException {
        LogviewerAddress logviewer = confs.logviewer();
        NimbusSummary leader = nimbus.getLeader();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("host", leader.get_host());
        row.put("port", leader.get_port());
        row.put("status", leader.is_isLeader() ? "Leader" : "Not a Leader");
        row.put("version", leader.get_version());
        row.put("nimbusUpTimeSeconds", leader.get_uptime_secs());
        row.put("nimbusUpTime", StormJson.prettyUptime(leader.get_uptime_secs()));
        row.put("nimbusLogLink", logviewer.url(leader.get_host(), "/api/v1/daemonlog?file=nimbus.log"));
        return Map.of("nimbuses", List.of(row));
    }

    Map<String, Object> supervisorSummary() throws TException {
        Map<String, Object> conf = confs.server();
        Map<String, Object> json = new LinkedHashMap<>();
        LogviewerAddress logviewer = LogviewerAddress.of(conf);
        json.put("logviewerPort", logviewer.port());
        json.put("logviewerScheme", logviewer.scheme());
        json.put("supervisors", supervisors(nimbus.getClusterInfo()));
        json.put("schedulerDisplayResource", true);
        return json;
    }

    /**
     * {@code supervisor?id=ID} or {@code ?host=HOST}: the supervisor and its workers; one that names another
     * supervisor or host is unknown here (404), as on Storm.
     */
    Map<String, Object> supervisor(String id, String host, TopologyApi topologies) throws TException {
        ClusterSummary cluster = nimbus.getClusterInfo();
        SupervisorSummary only = cluster.get_supervisors().get(0);
        boolean byId = id != null && !id.isBlank();
        if (byId ? !id.equals(only.get_supervisor_id()) : host != null && !host.isBlank() && !host.equals(only.get_host())) {
            throw new NotAliveException(byId
                ? "no supervisor with id '" + id + "': this server's only supervisor is '" + only.get_supervisor_id() + "'"
                : "no supervisor on host '" + host + "': this server's only supervisor runs on '" + only.get_host() + "'");
        }
        List<Object> workers = new ArrayList<>();
        for (TopologySummary t : cluster.get_topologies()) {
            workers.addAll(topologies.workers(t.get_id()));
        }
        Map<String, Object> json = supervisorSummary();
        json.put("workers", workers);
        return json;
    }

    private List<Object> supervisors(ClusterSummary cluster) {
        List<Object> rows = new ArrayList<>();
        for (SupervisorSummary s : cluster.get_supervisors()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", s.get_supervisor_id());
            row.put("host", s.get_host());
            row.put("uptime", StormJson.prettyUptime(s.get_uptime_secs()));
            row.put("uptimeSeconds", s.get_uptime_secs());
            row.put("blacklisted", false);
            row.put("slotsTotal", slots(cluster));
            row.put("slotsUsed", cluster.get_topologies_size());
            row.put("slotsFree", slots(cluster) - cluster.get_topologies_size());
            row.put("totalMem", machine.totalMemoryMb());
            row.put("totalCpu", machine.totalCpu());
            row.put("usedMem", machine.usedMemoryMb());
            row.put("usedCpu", machine.usedCpu());
            row.put("availMem", machine.totalMemoryMb() - machine.usedMemoryMb());
            row.put("availCpu", machine.totalCpu() - machine.usedCpu());
            row.put("totalGenericResources", "");
            row.put("usedGenericResources", "");
            row.put("availGenericResources", "");
            row.put("version", VersionInfo.getVersion());
            row.put("logLink", "");
            rows.add(row);
        }
        return rows;
    }

    /** Storm's {@code topo-history}: the ids of the topologies this server runs (it keeps no record of killed ones). */
    Map<String, Object> history() throws TException {
        List<String> ids = new ArrayList<>();
        for (TopologySummary t : nimbus.getClusterInfo().get_topologies()) {
            ids.add(t.get_id());
        }
        return Map.of("topo-history", ids);
    }

    Map<String, Object> ownerResources(String only) throws TException {
        Map<String, List<TopologySummary>> byOwner = new TreeMap<>();
        for (TopologySummary t : nimbus.getClusterInfo().get_topologies()) {
            byOwner.computeIfAbsent(t.get_owner(), o -> new ArrayList<>()).add(t);
        }
        if (only != null) {
            Map<String, Object> json = owner(only, byOwner.getOrDefault(only, List.of()));
            List<Object> topologies = new ArrayList<>();
            for (TopologySummary t : byOwner.getOrDefault(only, List.of())) {
                topologies.add(TopologyApi.summaryRow(t));
            }
            json.put("topologies", topologies);
            json.put("schedulerDisplayResource", true);
            return json;
        }
        List<Object> owners = new ArrayList<>();
        byOwner.forEach((owner, topologies) -> owners.add(owner(owner, topologies)));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("owners", owners);
        json.put("schedulerDisplayResource", true);
        return json;
    }

    private Map<String, Object> owner(String owner, List<TopologySummary> topologies) {
        int executors = 0;
        int workers = 0;
        int tasks = 0;
        for (TopologySummary t : topologies) {
            executors += t.get_num_executors();
            workers += t.get_num_workers();
            tasks += t.get_num_tasks();
        }
        double memory = topologies.isEmpty() ? 0 : machine.usedMemoryMb();
        double cpu = topologies.isEmpty() ? 0 : machine.usedCpu();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("owner", owner);
        json.put("totalTopologies", topologies.size());
        json.put("totalExecutors", executors);
        json.put("totalWorkers", workers);
        json.put("totalTasks", tasks);
        json.put("totalMemoryUsage", memory);
        json.put("totalCpuUsage", cpu);
        json.put("memoryGuarantee", "N/A");
        json.put("cpuGuarantee", "N/A");
        json.put("isolatedNodes", -1);
        json.put("memoryGuaranteeRemaining", "N/A");
        json.put("cpuGuaranteeRemaining", "N/A");
        json.put("totalReqOnHeapMem", 0.0);
        json.put("totalReqOffHeapMem", 0.0);
        json.put("totalReqMem", 0.0);
        json.put("totalReqCpu", 0.0);
        json.put("totalAssignedOnHeapMem", memory);
        json.put("totalAssignedOffHeapMem", 0.0);
        return json;
    }
}
