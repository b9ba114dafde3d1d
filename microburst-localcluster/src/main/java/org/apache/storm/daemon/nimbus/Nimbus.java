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

    @Override public void submitTopology(String a0, String a1, String a2, StormTopology a3)
        throws AlreadyAliveException, InvalidTopologyException, AuthorizationException, TException {
        calls.submitTopology(a0, a1, a2, a3);
    }

    @Override public void submitTopologyWithOpts(String a0, String a1, String a2, StormTopology a3, SubmitOptions a4)
        throws AlreadyAliveException, InvalidTopologyException, AuthorizationException, TException {
        calls.submitTopologyWithOpts(a0, a1, a2, a3, a4);
    }

    @Override public void killTopology(String a0)
        throws NotAliveException, AuthorizationException, TException {
        calls.killTopology(a0);
    }

    @Override public void killTopologyWithOpts(String a0, KillOptions a1)
        throws NotAliveException, AuthorizationException, TException {
        calls.killTopologyWithOpts(a0, a1);
    }

    @Override public void activate(String a0)
        throws NotAliveException, AuthorizationException, TException {
        calls.activate(a0);
    }

    @Override public void deactivate(String a0)
        throws NotAliveException, AuthorizationException, TException {
        calls.deactivate(a0);
    }

    @Override public void rebalance(String a0, RebalanceOptions a1)
        throws NotAliveException, InvalidTopologyException, AuthorizationException, TException {
        calls.rebalance(a0, a1);
    }

    @Override public void setLogConfig(String a0, LogConfig a1)
        throws TException {
        calls.setLogConfig(a0, a1);
    }

    @Override public LogConfig getLogConfig(String a0)
        throws TException {
        return calls.getLogConfig(a0);
    }

    @Override public void debug(String a0, String a1, boolean a2, double a3)
        throws NotAliveException, AuthorizationException, TException {
        calls.debug(a0, a1, a2, a3);
    }

    @Override public void setWorkerProfiler(String a0, ProfileRequest a1)
        throws TException {
        calls.setWorkerProfiler(a0, a1);
    }

    @Override public List<ProfileRequest> getComponentPendingProfileActions(String a0, String a1, ProfileAction a2)
        throws TException {
        return calls.getComponentPendingProfileActions(a0, a1, a2);
    }

    @Override public void uploadNewCredentials(String a0, Credentials a1)
        throws NotAliveException, InvalidTopologyException, AuthorizationException, TException {
        calls.uploadNewCredentials(a0, a1);
    }

    @Override public String beginCreateBlob(String a0, SettableBlobMeta a1)
        throws AuthorizationException, KeyAlreadyExistsException, TException {
        return calls.beginCreateBlob(a0, a1);
    }

    @Override public String beginUpdateBlob(String a0)
        throws AuthorizationException, KeyNotFoundException, TException {
        return calls.beginUpdateBlob(a0);
    }

    @Override public void uploadBlobChunk(String a0, ByteBuffer a1)
        throws AuthorizationException, TException {
        calls.uploadBlobChunk(a0, a1);
    }

    @Override public void finishBlobUpload(String a0)
        throws AuthorizationException, TException {
        calls.finishBlobUpload(a0);
    }

    @Override public void cancelBlobUpload(String a0)
        throws AuthorizationException, TException {
        calls.cancelBlobUpload(a0);
    }

    @Override public ReadableBlobMeta getBlobMeta(String a0)
        throws AuthorizationException, KeyNotFoundException, TException {
        return calls.getBlobMeta(a0);
    }

    @Override public void setBlobMeta(String a0, SettableBlobMeta a1)
        throws AuthorizationException, KeyNotFoundException, TException {
        calls.setBlobMeta(a0, a1);
    }

    @Override public BeginDownloadResult beginBlobDownload(String a0)
        throws AuthorizationException, KeyNotFoundException, TException {
        return calls.beginBlobDownload(a0);
    }

    @Override public ByteBuffer downloadBlobChunk(String a0)
        throws AuthorizationException, TException {
        return calls.downloadBlobChunk(a0);
    }

    @Override public void deleteBlob(String a0)
        throws AuthorizationException, KeyNotFoundException, org.apache.storm.generated.IllegalStateException, TException {
        calls.deleteBlob(a0);
    }

    @Override public ListBlobsResult listBlobs(String a0)
        throws TException {
        return calls.listBlobs(a0);
    }

    @Override public int getBlobReplication(String a0)
        throws AuthorizationException, KeyNotFoundException, TException {
        return calls.getBlobReplication(a0);
    }

    @Override public int updateBlobReplication(String a0, int a1)
        throws AuthorizationException, KeyNotFoundException, TException {
        return calls.updateBlobReplication(a0, a1);
    }

    @Override public void createStateInZookeeper(String a0)
        throws TException {
        calls.createStateInZookeeper(a0);
    }

    @Override public String beginFileUpload()
        throws AuthorizationException, TException {
        return calls.beginFileUpload();
    }

    @Override public void uploadChunk(String a0, ByteBuffer a1)
        throws AuthorizationException, TException {
        calls.uploadChunk(a0, a1);
    }

    @Override public void finishFileUpload(String a0)
        throws AuthorizationException, TException {
        calls.finishFileUpload(a0);
    }

    @Override public ByteBuffer downloadChunk(String a0)
        throws AuthorizationException, TException {
        return calls.downloadChunk(a0);
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

    @Override public TopologySummary getTopologySummaryByName(String a0)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologySummaryByName(a0);
    }

    @Override public TopologySummary getTopologySummary(String a0)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologySummary(a0);
    }

    @Override public NimbusSummary getLeader()
        throws AuthorizationException, TException {
        return calls.getLeader();
    }

    @Override public boolean isTopologyNameAllowed(String a0)
        throws AuthorizationException, TException {
        return calls.isTopologyNameAllowed(a0);
    }

    @Override public TopologyInfo getTopologyInfoByName(String a0)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologyInfoByName(a0);
    }

    @Override public TopologyInfo getTopologyInfo(String a0)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologyInfo(a0);
    }

    @Override public TopologyInfo getTopologyInfoByNameWithOpts(String a0, GetInfoOptions a1)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologyInfoByNameWithOpts(a0, a1);
    }

    @Override public TopologyInfo getTopologyInfoWithOpts(String a0, GetInfoOptions a1)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologyInfoWithOpts(a0, a1);
    }

    @Override public TopologyPageInfo getTopologyPageInfo(String a0, String a1, boolean a2)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologyPageInfo(a0, a1, a2);
    }

    @Override public SupervisorPageInfo getSupervisorPageInfo(String a0, String a1, boolean a2)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getSupervisorPageInfo(a0, a1, a2);
    }

    @Override public ComponentPageInfo getComponentPageInfo(String a0, String a1, String a2, boolean a3)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getComponentPageInfo(a0, a1, a2, a3);
    }

    @Override public String getTopologyConf(String a0)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopologyConf(a0);
    }

    @Override public StormTopology getTopology(String a0)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getTopology(a0);
    }

    @Override public StormTopology getUserTopology(String a0)
        throws NotAliveException, AuthorizationException, TException {
        return calls.getUserTopology(a0);
    }

    @Override public TopologyHistoryInfo getTopologyHistory(String a0)
        throws AuthorizationException, TException {
        return calls.getTopologyHistory(a0);
    }

    @Override public List<OwnerResourceSummary> getOwnerResourceSummaries(String a0)
        throws AuthorizationException, TException {
        return calls.getOwnerResourceSummaries(a0);
    }

    @Override public SupervisorAssignments getSupervisorAssignments(String a0)
        throws AuthorizationException, TException {
        return calls.getSupervisorAssignments(a0);
    }

    @Override public void sendSupervisorWorkerHeartbeats(SupervisorWorkerHeartbeats a0)
        throws AuthorizationException, TException {
        calls.sendSupervisorWorkerHeartbeats(a0);
    }

    @Override public void sendSupervisorWorkerHeartbeat(SupervisorWorkerHeartbeat a0)
        throws AuthorizationException, NotAliveException, TException {
        calls.sendSupervisorWorkerHeartbeat(a0);
    }

    @Override public void processWorkerMetrics(WorkerMetrics a0)
        throws TException {
        calls.processWorkerMetrics(a0);
    }

    @Override public boolean isRemoteBlobExists(String a0)
        throws AuthorizationException, TException {
        return calls.isRemoteBlobExists(a0);
    }
}
