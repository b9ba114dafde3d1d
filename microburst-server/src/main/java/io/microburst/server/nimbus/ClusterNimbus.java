package io.microburst.server.nimbus;

import io.microburst.MicroburstCluster;
import io.microburst.blobstore.BlobStoreCalls;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.BeginDownloadResult;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.ComponentPageInfo;
import org.apache.storm.generated.Credentials;
import org.apache.storm.generated.GetInfoOptions;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.ListBlobsResult;
import org.apache.storm.generated.LogConfig;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.OwnerResourceSummary;
import org.apache.storm.generated.ProfileAction;
import org.apache.storm.generated.ProfileRequest;
import org.apache.storm.generated.ReadableBlobMeta;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.SettableBlobMeta;
import org.apache.storm.generated.StormTopology;
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
import org.apache.storm.utils.Utils;

/**
 * The part of a {@link Nimbus.Iface} that any Microburst Nimbus shares, whether it lives in the submitting JVM
 * ({@code microburst local}) or serves Thrift ({@code microburst server}): lifecycle calls and queries forwarded to an
 * in-process {@link ILocalCluster}, topology name checks, the blob calls (answered by a {@link MicroburstCluster}'s
 * blob store), and a refusal naming the call for everything a single machine cannot honour (supervisors, heartbeats,
 * profiling). Subclasses implement submission and jar upload, and answer {@link #refuse} for the calls they can
 * serve some other way.
 *
 * <p>Thread-safe as long as the cluster is: every method may be called from any thread.
 */
public abstract class ClusterNimbus implements Nimbus.Iface {
    /** The cluster every lifecycle call and query is forwarded to; not closed by this object. */
    protected final ILocalCluster cluster;
    private final long startedAtMillis = System.currentTimeMillis();

    protected ClusterNimbus(ILocalCluster cluster) {
        this.cluster = cluster;
    }

    /** The cluster every call is forwarded to. */
    public ILocalCluster cluster() {
        return cluster;
    }

    /**
     * The Nimbus that answers {@code call}, a call this class cannot honour; by default none: throws an error that
     * names the call.
     *
     * @param call the Thrift call, with a word on what it is for, as shown to the caller
     */
    protected Nimbus.Iface refuse(String call) throws TException {
        throw new UnsupportedCallException(call);
    }

    /** Seconds since this object was created: the uptime a Nimbus reports. */
    protected int uptimeSecs() {
        return (int) TimeUnit.MILLISECONDS.toSeconds(System.currentTimeMillis() - startedAtMillis);
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

    // ---- lifecycle of running topologies ----------------------------------------------------------------------

    @Override
    public void killTopology(String name) throws TException {
        cluster.killTopology(name);
    }

    @Override
    public void killTopologyWithOpts(String name, KillOptions options) throws TException {
        cluster.killTopologyWithOpts(name, options);
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

    // ---- calls a single machine cannot honour ----------------------------------------------------------------
    // Each asks refuse(call) for the Nimbus that answers it; the base refuses them all with an error naming the call.

    @Override
    public TopologyPageInfo getTopologyPageInfo(String id, String window, boolean includeSys) throws TException {
        return refuse("getTopologyPageInfo (UI page)").getTopologyPageInfo(id, window, includeSys);
    }

    @Override
    public SupervisorPageInfo getSupervisorPageInfo(String id, String host, boolean includeSys) throws TException {
        return refuse("getSupervisorPageInfo (UI page)").getSupervisorPageInfo(id, host, includeSys);
    }

    @Override
    public ComponentPageInfo getComponentPageInfo(String topologyId, String componentId, String window,
                                                  boolean includeSys) throws TException {
        return refuse("getComponentPageInfo (UI page)").getComponentPageInfo(topologyId, componentId, window, includeSys);
    }

    @Override
    public void setLogConfig(String name, LogConfig config) throws TException {
        refuse("setLogConfig").setLogConfig(name, config);
    }

    @Override
    public LogConfig getLogConfig(String name) throws TException {
        return refuse("getLogConfig").getLogConfig(name);
    }

    @Override
    public void debug(String name, String component, boolean enable, double samplingPercentage) throws TException {
        refuse("debug (event sampling)").debug(name, component, enable, samplingPercentage);
    }

    @Override
    public void setWorkerProfiler(String id, ProfileRequest profileRequest) throws TException {
        refuse("setWorkerProfiler").setWorkerProfiler(id, profileRequest);
    }

    @Override
    public List<ProfileRequest> getComponentPendingProfileActions(String id, String componentId,
                                                                  ProfileAction action) throws TException {
        return refuse("getComponentPendingProfileActions").getComponentPendingProfileActions(id, componentId, action);
    }

    @Override
    public String beginCreateBlob(String key, SettableBlobMeta meta) throws TException {
        return askBlobStore("the blob store (beginCreateBlob)", store -> store.beginCreateBlob(key, meta),
            nimbus -> nimbus.beginCreateBlob(key, meta));
    }

    @Override
    public String beginUpdateBlob(String key) throws TException {
        return askBlobStore("the blob store (beginUpdateBlob)", store -> store.beginUpdateBlob(key),
            nimbus -> nimbus.beginUpdateBlob(key));
    }

    @Override
    public void uploadBlobChunk(String session, ByteBuffer chunk) throws TException {
        tellBlobStore("the blob store (uploadBlobChunk)", store -> store.uploadBlobChunk(session, chunk),
            nimbus -> nimbus.uploadBlobChunk(session, chunk));
    }

    @Override
    public void finishBlobUpload(String session) throws TException {
        tellBlobStore("the blob store (finishBlobUpload)", store -> store.finishBlobUpload(session),
            nimbus -> nimbus.finishBlobUpload(session));
    }

    @Override
    public void cancelBlobUpload(String session) throws TException {
        tellBlobStore("the blob store (cancelBlobUpload)", store -> store.cancelBlobUpload(session),
            nimbus -> nimbus.cancelBlobUpload(session));
    }

    @Override
    public ReadableBlobMeta getBlobMeta(String key) throws TException {
        return askBlobStore("the blob store (getBlobMeta)", store -> store.getBlobMeta(key),
            nimbus -> nimbus.getBlobMeta(key));
    }

    @Override
    public void setBlobMeta(String key, SettableBlobMeta meta) throws TException {
        tellBlobStore("the blob store (setBlobMeta)", store -> store.setBlobMeta(key, meta),
            nimbus -> nimbus.setBlobMeta(key, meta));
    }

    @Override
    public BeginDownloadResult beginBlobDownload(String key) throws TException {
        return askBlobStore("the blob store (beginBlobDownload)", store -> store.beginBlobDownload(key),
            nimbus -> nimbus.beginBlobDownload(key));
    }

    @Override
    public ByteBuffer downloadBlobChunk(String session) throws TException {
        return askBlobStore("the blob store (downloadBlobChunk)", store -> store.downloadBlobChunk(session),
            nimbus -> nimbus.downloadBlobChunk(session));
    }

    @Override
    public void deleteBlob(String key) throws TException {
        tellBlobStore("the blob store (deleteBlob)", store -> store.deleteBlob(key), nimbus -> nimbus.deleteBlob(key));
    }

    @Override
    public ListBlobsResult listBlobs(String session) throws TException {
        return askBlobStore("the blob store (listBlobs)", store -> store.listBlobs(session),
            nimbus -> nimbus.listBlobs(session));
    }

    @Override
    public int getBlobReplication(String key) throws TException {
        return askBlobStore("the blob store (getBlobReplication)", store -> store.getBlobReplication(key),
            nimbus -> nimbus.getBlobReplication(key));
    }

    @Override
    public int updateBlobReplication(String key, int replication) throws TException {
        return askBlobStore("the blob store (updateBlobReplication)",
            store -> store.updateBlobReplication(key, replication),
            nimbus -> nimbus.updateBlobReplication(key, replication));
    }

    @Override
    public boolean isRemoteBlobExists(String blobKey) throws TException {
        return askBlobStore("the blob store (isRemoteBlobExists)", store -> store.isRemoteBlobExists(blobKey),
            nimbus -> nimbus.isRemoteBlobExists(blobKey));
    }

    @Override
    public void createStateInZookeeper(String key) throws TException {
        tellBlobStore("createStateInZookeeper", store -> store.createStateInZookeeper(key),
            nimbus -> nimbus.createStateInZookeeper(key));
    }

    /** A blob call made to {@code T}: the cluster's blob store, or the Nimbus {@link #refuse} gives. */
    @FunctionalInterface
    private interface BlobCall<T, R> {
        R call(T target) throws TException;
    }

    @FunctionalInterface
    private interface BlobAction<T> {
        void call(T target) throws TException;
    }

    /** A blob call answered by a {@link MicroburstCluster}'s blob store, or else by the Nimbus of {@code refuse}. */
    private <R> R askBlobStore(String refusal, BlobCall<BlobStoreCalls, R> onStore, BlobCall<Nimbus.Iface, R> elsewhere)
        throws TException {
        return cluster instanceof MicroburstCluster microburst ? onStore.call(microburst.blobStore())
            : elsewhere.call(refuse(refusal));
    }

    /** {@link #askBlobStore} for a call that answers nothing. */
    private void tellBlobStore(String refusal, BlobAction<BlobStoreCalls> onStore, BlobAction<Nimbus.Iface> elsewhere)
        throws TException {
        askBlobStore(refusal, store -> asNull(onStore, store), nimbus -> asNull(elsewhere, nimbus));
    }

    private static <T> Void asNull(BlobAction<T> action, T target) throws TException {
        action.call(target);
        return null;
    }

    @Override
    public ByteBuffer downloadChunk(String id) throws TException {
        return refuse("downloadChunk (jar download)").downloadChunk(id);
    }

    @Override
    public TopologyHistoryInfo getTopologyHistory(String user) throws TException {
        return refuse("getTopologyHistory").getTopologyHistory(user);
    }

    @Override
    public List<OwnerResourceSummary> getOwnerResourceSummaries(String owner) throws TException {
        return refuse("getOwnerResourceSummaries").getOwnerResourceSummaries(owner);
    }

    @Override
    public SupervisorAssignments getSupervisorAssignments(String node) throws TException {
        return refuse("getSupervisorAssignments (supervisor call)").getSupervisorAssignments(node);
    }

    @Override
    public void sendSupervisorWorkerHeartbeats(SupervisorWorkerHeartbeats heartbeats) throws TException {
        refuse("sendSupervisorWorkerHeartbeats (supervisor call)").sendSupervisorWorkerHeartbeats(heartbeats);
    }

    @Override
    public void sendSupervisorWorkerHeartbeat(SupervisorWorkerHeartbeat heartbeat) throws TException {
        refuse("sendSupervisorWorkerHeartbeat (supervisor call)").sendSupervisorWorkerHeartbeat(heartbeat);
    }

    @Override
    public void processWorkerMetrics(WorkerMetrics metrics) throws TException {
        refuse("processWorkerMetrics (worker call)").processWorkerMetrics(metrics);
    }
}
