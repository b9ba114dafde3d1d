package org.apache.storm.daemon.nimbus;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.storm.daemon.DaemonCommon;
import org.apache.storm.daemon.Shutdownable;
import org.apache.storm.generated.AlreadyAliveException;
import org.apache.storm.generated.AuthorizationException;
import org.apache.storm.generated.BeginDownloadResult;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.ComponentPageInfo;
import org.apache.storm.generated.Credentials;
import org.apache.storm.generated.GetInfoOptions;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.KeyAlreadyExistsException;
import org.apache.storm.generated.KeyNotFoundException;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.ListBlobsResult;
import org.apache.storm.generated.LogConfig;
import org.apache.storm.generated.NimbusSummary;
import org.apache.storm.generated.NotAliveException;
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
import org.apache.storm.thrift.TException;

/**
 * What storm-server's {@code LocalCluster.getNimbus()} returns, under the type its signature names, so that a main or
 * test compiled against storm-server (for example {@code cluster.getNimbus().getClusterInfo()}) links against
 * microburst-localcluster: every Nimbus call goes to the local cluster that made it. There is no Nimbus daemon here,
 * so {@link #shutdown()} leaves the cluster running (closing the {@code LocalCluster} stops it) and the daemon's own
 * members (its constructors from a configuration, scheduling, ZooKeeper state) are absent.
 *
 * <p>Thread-safe when the calls it is given are (the local cluster's are).
 */
public class Nimbus implements org.apache.storm.generated.Nimbus.Iface, Shutdownable, DaemonCommon {
    private final org.apache.storm.generated.Nimbus.Iface calls;

    /** Nimbus as seen through {@code calls}: the local cluster. */
    public Nimbus(org.apache.storm.generated.Nimbus.Iface calls) {
        this.calls = calls;
    }

    /** Nothing to stop: the local cluster's {@code close()} stops the topologies. */
    @Override
    public void shutdown() {
    }

    /** Always true: there is no daemon timer with work pending. */
    @Override
    public boolean isWaiting() {
        return true;
    }

    @Override public void submitTopology(
            String name, String uploadedJarLocation, String jsonConf, StormTopology topology)
        throws AlreadyAliveException, InvalidTopologyException, AuthorizationException, TException {
        calls.submitTopology(name, uploadedJarLocation, jsonConf, topology);
    }

    @Override public void submitTopologyWithOpts(
            String name, String uploadedJarLocation, String jsonConf, StormTopology topology, SubmitOptions options)
        throws AlreadyAliveException, InvalidTopologyException, AuthorizationException, TException {
        calls.submitTopologyWithOpts(name, uploadedJarLocation, jsonConf, topology, options);
    }

    @Override public void killTopology(String name)
        throws NotAliveException, AuthorizationException, TException {
        calls.killTopology(name);
    }

    @Override public void killTopologyWithOpts(String name, KillOptions options)
        throws NotAliveException, AuthorizationException, TException {
        calls.killTopologyWithOpts(name, options);
    }

    @Override public void activate(String name)
        throws NotAliveException, AuthorizationException, TException {
        calls.activate(name);
    }

    @Override public void deactivate(String name)
        throws NotAliveException, AuthorizationException, TException {
        calls.deactivate(name);
    }

    @Override public void rebalance(String name, RebalanceOptions options)
        throws NotAliveException, InvalidTopologyException, AuthorizationException, TException {
        calls.rebalance(name, options);
    }

    @Override public void setLogConfig(String name, LogConfig config)
        throws TException {
        calls.setLogConfig(name, config);
    }

    @Override public LogConfig getLogConfig(String name)
        throws TException {
        return calls.getLogConfig(name);
    }

    @Override public void debug(String name, String component, boolean enable, double samplingPercentage)
        throws NotAliveException, AuthorizationException, TException {
        calls.debug(name, component, enable, samplingPercentage);
    }

    @Override public void setWorkerProfiler(String id, ProfileRequest profileRequest)
        throws TException {
        calls.setWorkerProfiler(id, profileRequest);
    }

    @Override public List<ProfileRequest> getComponentPendingProfileActions(
            String id, String component_id, ProfileAction action)
        throws TException {
        return calls.getComponentPendingProfileActions(id, component_id, action);
    }

    @Override public void uploadNewCredentials(String name, Credentials creds)
        throws NotAliveException, InvalidTopologyException, AuthorizationException, TException {
        calls.uploadNewCredentials(name, creds);
    }

    @Override public String beginCreateBlob(String key, SettableBlobMeta meta)
        throws AuthorizationException, KeyAlreadyExistsException, TException {
        return calls.beginCreateBlob(key, meta);
    }

    @Override public String beginUpdateBlob(String key)
        throws AuthorizationException, KeyNotFoundException, TException {
        return calls.beginUpdateBlob(key);
    }

    @Override public void uploadBlobChunk(String session, ByteBuffer chunk)
        throws AuthorizationException, TException {
        calls.uploadBlobChunk(session, chunk);
    }

    @Override public void finishBlobUpload(String session)
        throws AuthorizationException, TException {
        calls.finishBlobUpload(session);
    }

    @Override public void cancelBlobUpload(String session)
        throws AuthorizationException, TException {
        calls.cancelBlobUpload(session);
    }

    @Override public ReadableBlobMeta getBlobMeta(String key)
        throws AuthorizationException, KeyNotFoundException, TException {
        return calls.getBlobMeta(key);
    }

    @Override public void setBlobMeta(String key, SettableBlobMeta meta)
        throws AuthorizationException, KeyNotFoundException, TException {
        calls.setBlobMeta(key, meta);
    }

    @Override public BeginDownloadResult beginBlobDownload(String key)
        throws AuthorizationException, KeyNotFoundException, TException {
        return calls.beginBlobDownload(key);
    }

    @Override public ByteBuffer downloadBlobChunk(String session)
        throws AuthorizationException, TException {
        return calls.downloadBlobChunk(session);
    }

    @Override public void deleteBlob(String key)
        throws AuthorizationException, KeyNotFoundException,
            org.apache.storm.generated.IllegalStateException, TException {
        calls.deleteBlob(key);
    }

    @Override public ListBlobsResult listBlobs(String session)
        throws TException {
        return calls.listBlobs(session);
    }

    @Override public int getBlobReplication(String key)
        throws AuthorizationException, KeyNotFoundException, TException {
        return calls.getBlobReplication(key);
    }

    @Override public int updateBlobReplication(String key, int replication)
        throws AuthorizationException, KeyNotFoundException, TException {
        return calls.updateBlobReplication(key, replication);
    }

    @Override public void createStateInZookeeper(String key)
        throws TException {
        calls.createStateInZookeeper(key);
    }

    @Override public String beginFileUpload()
        throws AuthorizationException, TException {
        return calls.beginFileUpload();
    }

    @Override public void uploadChunk(String location, ByteBuffer chunk)
        throws AuthorizationException, TException {
        calls.uploadChunk(location, chunk);
    }

    @Override public void finishFileUpload(String location)
        throws AuthorizationException, TException {
        calls.finishFileUpload(location);
    }

    @Override public ByteBuffer downloadChunk(String id)
        throws AuthorizationException, TException {
        return calls.downloadChunk(id);
    }

    @Override public String getNimbusConf()
        throws AuthorizationException, TException {
        return calls.getNimbusConf();
    }

    @Override public ClusterSummary getClusterInfo()
        throws AuthorizationException, TException {
        return calls.getClusterInfo();
    }

    @Override public List<TopologySummary> getTopologySummaries()
        throws AuthorizationException, TException {
        return calls.getTopologySummaries();
    }

    @Override public TopologySummary getTopologySummaryByName(String name)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologySummaryByName(name);
    }

    @Override public TopologySummary getTopologySummary(String id)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologySummary(id);
    }

    @Override public NimbusSummary getLeader()
        throws AuthorizationException, TException {
        return calls.getLeader();
    }

    @Override public boolean isTopologyNameAllowed(String name)
        throws AuthorizationException, TException {
        return calls.isTopologyNameAllowed(name);
    }

    @Override public TopologyInfo getTopologyInfoByName(String name)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologyInfoByName(name);
    }

    @Override public TopologyInfo getTopologyInfo(String id)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologyInfo(id);
    }

    @Override public TopologyInfo getTopologyInfoByNameWithOpts(String name, GetInfoOptions options)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologyInfoByNameWithOpts(name, options);
    }

    @Override public TopologyInfo getTopologyInfoWithOpts(String id, GetInfoOptions options)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologyInfoWithOpts(id, options);
    }

    @Override public TopologyPageInfo getTopologyPageInfo(String id, String window, boolean is_include_sys)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologyPageInfo(id, window, is_include_sys);
    }

    @Override public SupervisorPageInfo getSupervisorPageInfo(String id, String host, boolean is_include_sys)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getSupervisorPageInfo(id, host, is_include_sys);
    }

    @Override public ComponentPageInfo getComponentPageInfo(
            String topology_id, String component_id, String window, boolean is_include_sys)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getComponentPageInfo(topology_id, component_id, window, is_include_sys);
    }

    @Override public String getTopologyConf(String id)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologyConf(id);
    }

    @Override public StormTopology getTopology(String id)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopology(id);
    }

    @Override public StormTopology getUserTopology(String id)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getUserTopology(id);
    }

    @Override public TopologyHistoryInfo getTopologyHistory(String user)
        throws AuthorizationException, TException {
        return calls.getTopologyHistory(user);
    }

    @Override public List<OwnerResourceSummary> getOwnerResourceSummaries(String owner)
        throws AuthorizationException, TException {
        return calls.getOwnerResourceSummaries(owner);
    }

    @Override public SupervisorAssignments getSupervisorAssignments(String node)
        throws AuthorizationException, TException {
        return calls.getSupervisorAssignments(node);
    }

    @Override public void sendSupervisorWorkerHeartbeats(SupervisorWorkerHeartbeats heartbeats)
        throws AuthorizationException, TException {
        calls.sendSupervisorWorkerHeartbeats(heartbeats);
    }

    @Override public void sendSupervisorWorkerHeartbeat(SupervisorWorkerHeartbeat heatbeat)
        throws AuthorizationException, NotAliveException, TException {
        calls.sendSupervisorWorkerHeartbeat(heatbeat);
    }

    @Override public void processWorkerMetrics(WorkerMetrics metrics)
        throws TException {
        calls.processWorkerMetrics(metrics);
    }

    @Override public boolean isRemoteBlobExists(String blobKey)
        throws AuthorizationException, TException {
        return calls.isRemoteBlobExists(blobKey);
    }
}
