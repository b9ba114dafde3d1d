package io.microburst.cli.local;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.BeginDownloadResult;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.ComponentPageInfo;
import org.apache.storm.generated.Credentials;
import org.apache.storm.generated.GetInfoOptions;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.ListBlobsResult;
import org.apache.storm.generated.LogConfig;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NimbusSummary;
import org.apache.storm.generated.OwnerResourceSummary;
import org.apache.storm.generated.ProfileAction;
import org.apache.storm.generated.ProfileRequest;
import org.apache.storm.generated.ReadableBlobMeta;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.SettableBlobMeta;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.SubmitOptions;
import org.apache.storm.generated.SupervisorAssignments;
import org.apache.storm.generated.SupervisorPageInfo;
import org.apache.storm.generated.SupervisorWorkerHeartbeat;
import org.apache.storm.generated.SupervisorWorkerHeartbeats;
import org.apache.storm.generated.TopologyHistoryInfo;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologyPageInfo;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.generated.WorkerMetrics;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.shade.net.minidev.json.parser.ParseException;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;
import org.apache.storm.utils.VersionInfo;

/**
 * A {@link Nimbus.Iface} backed by an in-process {@link ILocalCluster}, so that an unchanged topology main that
 * submits with {@code StormSubmitter} runs in this JVM. Install it with
 * {@link NimbusClient.LocalOverride}; every {@code NimbusClient} then talks to this object instead of a remote Nimbus.
 *
 * <p>Submission: the jar upload ({@code beginFileUpload}, {@code uploadChunk}, {@code finishFileUpload}) is accepted
 * and the bytes discarded, because the jar's classes are already on the submitting thread's context class loader.
 * The JSON configuration is parsed, the {@code --conf} overrides are merged over it, and the topology is submitted to
 * the cluster from the calling thread (the cluster may use that thread's context class loader to deserialise spouts
 * and bolts).
 *
 * <p>Calls that only make sense on a real cluster (blobs, heartbeats, profiling, log levels, UI pages) throw
 * {@link NotInProcessException}, unless the cluster is itself a {@link Nimbus.Iface}, which then answers them.
 * Thread-safe: a topology's main may call from any thread.
 */
public final class LocalNimbus implements Nimbus.Iface {
    private final ILocalCluster cluster;
    private final Map<String, Object> confOverrides;
    private final long startedAtMillis = System.currentTimeMillis();
    /** Topologies submitted through this adapter and not yet killed through it, in submission order. */
    private final Set<String> submitted = ConcurrentHashMap.newKeySet();
    /** Open jar uploads: location to bytes received so far. */
    private final Map<String, AtomicLong> openUploads = new ConcurrentHashMap<>();
    private final AtomicLong uploadSequence = new AtomicLong();
    private final AtomicLong uploadedBytes = new AtomicLong();

    /**
     * @param cluster the cluster every call is forwarded to; not closed by this object
     * @param confOverrides merged over the configuration of every submitted topology; copied
     */
    public LocalNimbus(ILocalCluster cluster, Map<String, Object> confOverrides) {
        this.cluster = cluster;
        this.confOverrides = Map.copyOf(confOverrides);
    }

    /** The cluster every call is forwarded to. */
    public ILocalCluster cluster() {
        return cluster;
    }

    /** Names of the topologies submitted through this adapter and not killed through it, sorted. */
    public Set<String> submittedTopologies() {
        return new TreeSet<>(submitted);
    }

    /** Total jar bytes received by {@code uploadChunk} and discarded. */
    public long uploadedJarBytes() {
        return uploadedBytes.get();
    }

    // ---- submission -------------------------------------------------------------------------------------------

    @Override
    public void submitTopology(String name, String uploadedJarLocation, String jsonConf, StormTopology topology)
            throws TException {
        cluster.submitTopology(name, topologyConf(jsonConf), topology);
        submitted.add(name);
    }

    @Override
    public void submitTopologyWithOpts(String name, String uploadedJarLocation, String jsonConf,
                                       StormTopology topology, SubmitOptions options) throws TException {
        cluster.submitTopologyWithOpts(name, topologyConf(jsonConf), topology, options);
        submitted.add(name);
    }

    /** The submitted JSON configuration with the overrides merged over it. */
    Map<String, Object> topologyConf(String jsonConf) throws InvalidTopologyException {
        Map<String, Object> conf = new HashMap<>();
        if (jsonConf != null && !jsonConf.isBlank()) {
            Object parsed;
            try {
                parsed = JSONValue.parseWithException(jsonConf);
            } catch (ParseException e) {
                throw new InvalidTopologyException("topology configuration is not valid JSON: " + e.getMessage());
            }
            if (!(parsed instanceof Map)) {
                throw new InvalidTopologyException("topology configuration must be a JSON object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> parsedMap = (Map<String, Object>) parsed;
            conf.putAll(parsedMap);
        }
        conf.putAll(confOverrides);
        return conf;
    }

    @Override
    public boolean isTopologyNameAllowed(String name) throws TException {
        try {
            Utils.validateTopologyName(name);
        } catch (IllegalArgumentException invalid) {
            return false;
        }
        for (TopologySummary summary : cluster.getTopologySummaries()) {
            if (name.equals(summary.get_name())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String beginFileUpload() {
        String location = "in-process-upload-" + uploadSequence.incrementAndGet() + ".jar";
        openUploads.put(location, new AtomicLong());
        return location;
    }

    @Override
    public void uploadChunk(String location, ByteBuffer chunk) throws TException {
        AtomicLong received = openUploads.get(location);
        if (received == null) {
            throw new TException("no upload in progress at " + location);
        }
        received.addAndGet(chunk.remaining());
        uploadedBytes.addAndGet(chunk.remaining());
    }

    @Override
    public void finishFileUpload(String location) throws TException {
        if (openUploads.remove(location) == null) {
            throw new TException("no upload in progress at " + location);
        }
    }

    // ---- lifecycle of running topologies ----------------------------------------------------------------------

    @Override
    public void killTopology(String name) throws TException {
        cluster.killTopology(name);
        submitted.remove(name);
    }

    @Override
    public void killTopologyWithOpts(String name, KillOptions options) throws TException {
        cluster.killTopologyWithOpts(name, options);
        submitted.remove(name);
    }

    @Override
    public void activate(String name) throws TException {
        cluster.activate(name);
    }

    @Override
    public void deactivate(String name) throws TException {
        cluster.deactivate(name);
    }

    @Override
    public void rebalance(String name, RebalanceOptions options) throws TException {
        cluster.rebalance(name, options);
    }

    @Override
    public void uploadNewCredentials(String name, Credentials creds) throws TException {
        cluster.uploadNewCredentials(name, creds);
    }

    // ---- queries ----------------------------------------------------------------------------------------------

    /** The {@code --conf} overrides, as JSON: they are this process's cluster-wide settings. */
    @Override
    public String getNimbusConf() {
        return JSONValue.toJSONString(confOverrides);
    }

    @Override
    public ClusterSummary getClusterInfo() throws TException {
        return cluster.getClusterInfo();
    }

    @Override
    public List<TopologySummary> getTopologySummaries() throws TException {
        return cluster.getTopologySummaries();
    }

    @Override
    public TopologySummary getTopologySummaryByName(String name) throws TException {
        return cluster.getTopologySummaryByName(name);
    }

    @Override
    public TopologySummary getTopologySummary(String id) throws TException {
        return cluster.getTopologySummary(id);
    }

    /** This process is the one and only Nimbus, hence always the leader. */
    @Override
    public NimbusSummary getLeader() {
        int uptimeSecs = (int) TimeUnit.MILLISECONDS.toSeconds(System.currentTimeMillis() - startedAtMillis);
        return new NimbusSummary("localhost", 0, uptimeSecs, true, VersionInfo.getVersion());
    }

    @Override
    public TopologyInfo getTopologyInfoByName(String name) throws TException {
        return cluster.getTopologyInfoByName(name);
    }

    @Override
    public TopologyInfo getTopologyInfo(String id) throws TException {
        return cluster.getTopologyInfo(id);
    }

    @Override
    public TopologyInfo getTopologyInfoByNameWithOpts(String name, GetInfoOptions options) throws TException {
        return cluster.getTopologyInfoByNameWithOpts(name, options);
    }

    @Override
    public TopologyInfo getTopologyInfoWithOpts(String id, GetInfoOptions options) throws TException {
        return cluster.getTopologyInfoWithOpts(id, options);
    }

    @Override
    public String getTopologyConf(String id) throws TException {
        return cluster.getTopologyConf(id);
    }

    @Override
    public StormTopology getTopology(String id) throws TException {
        return cluster.getTopology(id);
    }

    /** The cluster keeps no separate system-free copy; the submitted topology is the user topology. */
    @Override
    public StormTopology getUserTopology(String id) throws TException {
        return cluster.getTopology(id);
    }

    // ---- calls with no meaning in one process -----------------------------------------------------------------
    // Forwarded when the cluster is itself a Nimbus (Apache Storm's LocalCluster is, and its workers report metrics
    // and heartbeats through whatever NimbusClient is installed); refused otherwise.

    private Nimbus.Iface nimbusBehind(String operation) throws NotInProcessException {
        if (cluster instanceof Nimbus.Iface nimbus) {
            return nimbus;
        }
        throw new NotInProcessException(operation);
    }

    @Override
    public TopologyPageInfo getTopologyPageInfo(String id, String window, boolean includeSys) throws TException {
        return nimbusBehind("getTopologyPageInfo (UI page)").getTopologyPageInfo(id, window, includeSys);
    }

    @Override
    public SupervisorPageInfo getSupervisorPageInfo(String id, String host, boolean includeSys) throws TException {
        return nimbusBehind("getSupervisorPageInfo (UI page)").getSupervisorPageInfo(id, host, includeSys);
    }

    @Override
    public ComponentPageInfo getComponentPageInfo(String topologyId, String componentId, String window,
                                                  boolean includeSys) throws TException {
        return nimbusBehind("getComponentPageInfo (UI page)").getComponentPageInfo(topologyId, componentId, window, includeSys);
    }

    @Override
    public void setLogConfig(String name, LogConfig config) throws TException {
        nimbusBehind("setLogConfig").setLogConfig(name, config);
    }

    @Override
    public LogConfig getLogConfig(String name) throws TException {
        return nimbusBehind("getLogConfig").getLogConfig(name);
    }

    @Override
    public void debug(String name, String component, boolean enable, double samplingPercentage) throws TException {
        nimbusBehind("debug (event sampling)").debug(name, component, enable, samplingPercentage);
    }

    @Override
    public void setWorkerProfiler(String id, ProfileRequest profileRequest) throws TException {
        nimbusBehind("setWorkerProfiler").setWorkerProfiler(id, profileRequest);
    }

    @Override
    public List<ProfileRequest> getComponentPendingProfileActions(String id, String componentId,
                                                                  ProfileAction action) throws TException {
        return nimbusBehind("getComponentPendingProfileActions").getComponentPendingProfileActions(id, componentId, action);
    }

    @Override
    public String beginCreateBlob(String key, SettableBlobMeta meta) throws TException {
        return nimbusBehind("the blob store (beginCreateBlob)").beginCreateBlob(key, meta);
    }

    @Override
    public String beginUpdateBlob(String key) throws TException {
        return nimbusBehind("the blob store (beginUpdateBlob)").beginUpdateBlob(key);
    }

    @Override
    public void uploadBlobChunk(String session, ByteBuffer chunk) throws TException {
        nimbusBehind("the blob store (uploadBlobChunk)").uploadBlobChunk(session, chunk);
    }

    @Override
    public void finishBlobUpload(String session) throws TException {
        nimbusBehind("the blob store (finishBlobUpload)").finishBlobUpload(session);
    }

    @Override
    public void cancelBlobUpload(String session) throws TException {
        nimbusBehind("the blob store (cancelBlobUpload)").cancelBlobUpload(session);
    }

    @Override
    public ReadableBlobMeta getBlobMeta(String key) throws TException {
        return nimbusBehind("the blob store (getBlobMeta)").getBlobMeta(key);
    }

    @Override
    public void setBlobMeta(String key, SettableBlobMeta meta) throws TException {
        nimbusBehind("the blob store (setBlobMeta)").setBlobMeta(key, meta);
    }

    @Override
    public BeginDownloadResult beginBlobDownload(String key) throws TException {
        return nimbusBehind("the blob store (beginBlobDownload)").beginBlobDownload(key);
    }

    @Override
    public ByteBuffer downloadBlobChunk(String session) throws TException {
        return nimbusBehind("the blob store (downloadBlobChunk)").downloadBlobChunk(session);
    }

    @Override
    public void deleteBlob(String key) throws TException {
        nimbusBehind("the blob store (deleteBlob)").deleteBlob(key);
    }

    @Override
    public ListBlobsResult listBlobs(String session) throws TException {
        return nimbusBehind("the blob store (listBlobs)").listBlobs(session);
    }

    @Override
    public int getBlobReplication(String key) throws TException {
        return nimbusBehind("the blob store (getBlobReplication)").getBlobReplication(key);
    }

    @Override
    public int updateBlobReplication(String key, int replication) throws TException {
        return nimbusBehind("the blob store (updateBlobReplication)").updateBlobReplication(key, replication);
    }

    @Override
    public boolean isRemoteBlobExists(String blobKey) throws TException {
        return nimbusBehind("the blob store (isRemoteBlobExists)").isRemoteBlobExists(blobKey);
    }

    @Override
    public void createStateInZookeeper(String key) throws TException {
        nimbusBehind("createStateInZookeeper").createStateInZookeeper(key);
    }

    @Override
    public ByteBuffer downloadChunk(String id) throws TException {
        return nimbusBehind("downloadChunk (jar download)").downloadChunk(id);
    }

    @Override
    public TopologyHistoryInfo getTopologyHistory(String user) throws TException {
        return nimbusBehind("getTopologyHistory").getTopologyHistory(user);
    }

    @Override
    public List<OwnerResourceSummary> getOwnerResourceSummaries(String owner) throws TException {
        return nimbusBehind("getOwnerResourceSummaries").getOwnerResourceSummaries(owner);
    }

    @Override
    public SupervisorAssignments getSupervisorAssignments(String node) throws TException {
        return nimbusBehind("getSupervisorAssignments (supervisor call)").getSupervisorAssignments(node);
    }

    @Override
    public void sendSupervisorWorkerHeartbeats(SupervisorWorkerHeartbeats heartbeats) throws TException {
        nimbusBehind("sendSupervisorWorkerHeartbeats (supervisor call)").sendSupervisorWorkerHeartbeats(heartbeats);
    }

    @Override
    public void sendSupervisorWorkerHeartbeat(SupervisorWorkerHeartbeat heartbeat) throws TException {
        nimbusBehind("sendSupervisorWorkerHeartbeat (supervisor call)").sendSupervisorWorkerHeartbeat(heartbeat);
    }

    @Override
    public void processWorkerMetrics(WorkerMetrics metrics) throws TException {
        nimbusBehind("processWorkerMetrics (worker call)").processWorkerMetrics(metrics);
    }
}
