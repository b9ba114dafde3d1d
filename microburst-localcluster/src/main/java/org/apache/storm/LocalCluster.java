package org.apache.storm;

import io.microburst.MicroburstCluster;
import io.microburst.cluster.ClusterSettings;
import io.microburst.localcluster.Engines;
import io.microburst.localcluster.LocalMain;
import io.microburst.localcluster.NimbusCalls;
import io.microburst.localcluster.NotInProcess;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.storm.blobstore.BlobStore;
import org.apache.storm.cluster.IStormClusterState;
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
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.Nimbus.Iface;
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
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.nimbus.ILeaderElector;
import org.apache.storm.security.auth.IGroupMappingServiceProvider;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.testing.TrackedTopology;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;

/**
 * Storm's local-mode cluster, with storm-server's public signatures, running every topology on Microburst: a
 * {@link MicroburstCluster} in this process, with no ZooKeeper, Nimbus, supervisor or worker. Code and tests written
 * for storm-server's {@code LocalCluster} compile and run unchanged when this artifact replaces storm-server on their
 * class path. As Storm's, a new cluster answers {@link NimbusClient} (so {@code StormSubmitter}) until closed.
 * The signatures that name storm-server's daemons differ (see docs/COMPATIBILITY.md): {@link #getNimbus()} returns
 * a Nimbus of that type that only passes calls to this cluster, and the supervisor methods, {@code withINimbus},
 * {@code withNimbusWrapper} and {@code withTopoCache} are absent.
 *
 * <p>Thread-safe, as {@link MicroburstCluster}.
 */
public class LocalCluster implements ILocalClusterTrackedTopologyAware, Iface {
    /** Kill at once: {@code wait_secs} 0. */
    public static final KillOptions KILL_NOW = NimbusCalls.killNow();

    private final MicroburstCluster engine;
    private final Map<String, Object> daemonConf;
    private final StormMetricsRegistry metricRegistry = new StormMetricsRegistry();
    private final NimbusClient.LocalOverride nimbusOverride;
    private final long startMillis = System.currentTimeMillis();
    private final org.apache.storm.daemon.nimbus.Nimbus nimbus = new org.apache.storm.daemon.nimbus.Nimbus(this);

    /** A cluster as Storm's default one: message timeouts on. */
    public LocalCluster() throws Exception {
        this(new Builder().withDaemonConf(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, true));
    }

    /** As {@link #LocalCluster()}; the ZooKeeper address goes into the configuration, unused (none is needed). */
    public LocalCluster(String zkHost, Long zkPort) throws Exception {
        this(new Builder().withDaemonConf(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, true)
            .withDaemonConf(Config.STORM_ZOOKEEPER_SERVERS, List.of(zkHost))
            .withDaemonConf(Config.STORM_ZOOKEEPER_PORT, zkPort));
    }

    private LocalCluster(Builder builder) {
        this.engine = builder.engine();
        this.daemonConf = builder.clusterConf();
        Engines.register(this, engine);
        this.nimbusOverride = new NimbusClient.LocalOverride(this);
    }

    /** Runs {@code c} with a cluster and a DRPC server that Storm's clients reach, then keeps them {@code ttlSec}. */
    public static <T> T withLocalModeOverride(Callable<T> c, long ttlSec) throws Exception {
        return withLocalModeOverride(c, ttlSec, null);
    }

    /** As {@link #withLocalModeOverride(Callable, long)}, the cluster built with {@code daemonConf}. */
    public static <T> T withLocalModeOverride(Callable<T> c, long ttlSec, Map<String, Object> daemonConf) throws Exception {
        return LocalMain.withLocalModeOverride(c, ttlSec, new Builder().withDaemonConf(daemonConf)::build);
    }

    /** As Storm's {@code storm local} entry point: runs class {@code args[0]}'s main with the rest ({@link LocalMain}). */
    public static void main(final String[] args) throws Exception { LocalMain.main(args); }

    /** This cluster as Nimbus, under the type storm-server's signature names (there is no daemon): calls go here. */
    public org.apache.storm.daemon.nimbus.Nimbus getNimbus() { return nimbus; }

    public StormMetricsRegistry getMetricRegistry() { return metricRegistry; }

    /** A copy of the cluster's configuration: Storm's, with the builder's daemon configuration over it. */
    public Map<String, Object> getDaemonConf() {
        return new HashMap<>(daemonConf);
    }

    @Override
    public LocalTopology submitTopology(String topologyName, Map<String, Object> conf, StormTopology topology)
        throws TException {
        NimbusCalls.checkConf(conf);
        engine.submitTopology(topologyName, conf, topology);
        return new LocalTopology(topologyName, topology);
    }

    @Override
    public LocalTopology submitTopology(String topologyName, Map<String, Object> conf, TrackedTopology topology)
        throws TException {
        return submitTopology(topologyName, conf, topology.getTopology());
    }

    @Override
    public LocalTopology submitTopologyWithOpts(String topologyName, Map<String, Object> conf, StormTopology topology,
                                                SubmitOptions submitOpts) throws TException {
        NimbusCalls.checkConf(conf);
        engine.submitTopologyWithOpts(topologyName, conf, topology, submitOpts);
        return new LocalTopology(topologyName, topology);
    }

    @Override
    public LocalTopology submitTopologyWithOpts(String topologyName, Map<String, Object> conf, TrackedTopology topology,
                                                SubmitOptions submitOpts) throws TException {
        return submitTopologyWithOpts(topologyName, conf, topology.getTopology(), submitOpts);
    }

    /** Stops every topology and the cluster's threads; {@link NimbusClient} no longer reaches it. */
    @Override
    public synchronized void close() throws Exception {
        nimbusOverride.close();
        Engines.forget(this);
        engine.close();
    }

    @Override
    public void shutdown() {
        try {
            close();
        } catch (Exception e) {
            throw new IllegalStateException("Cannot close the cluster: " + e, e);
        }
    }

    /** There is no Nimbus Thrift server in this process: always throws. */
    public int getThriftServerPort() {
        throw new IllegalStateException("Microburst's LocalCluster runs no Nimbus Thrift server: call this cluster "
            + "(or getNimbus()) directly, or run microburst server for one");
    }

    /** Does nothing: there are no supervisors (every executor is a thread of this process). */
    public synchronized void killSupervisor(String id) { }

    /** Waits until every topology is idle, or {@link Testing#TEST_TIMEOUT_MS}; see {@link #waitForIdle(long)}. */
    public void waitForIdle() throws InterruptedException {
        waitForIdle(Testing.TEST_TIMEOUT_MS);
    }

    /**
     * Waits until every executor of every topology is idle (Microburst's {@code waitForIdle}, bounded by Storm's
     * test timeout, whatever {@code timeoutMs} says).
     *
     * @throws AssertionError if the cluster was not idle in time, as Storm's
     */
    public void waitForIdle(long timeoutMs) throws InterruptedException {
        if (!engine.waitForIdle()) {
            throw new AssertionError("Test timed out (" + timeoutMs + " ms): the cluster was not idle");
        }
    }

    // The rest forwards to the cluster (blobs: its blob store) or refuses what needs daemons; jar uploads are dropped.

    @Override public void submitTopology(String name, String uploadedJarLocation, String jsonConf, StormTopology topology)
        throws AlreadyAliveException, InvalidTopologyException, AuthorizationException, TException {
        submitTopology(name, NimbusCalls.parseConf(jsonConf), topology); }
    @Override public void submitTopologyWithOpts(String name, String uploadedJarLocation, String jsonConf,
        StormTopology topology, SubmitOptions options)
        throws AlreadyAliveException, InvalidTopologyException, AuthorizationException, TException {
        submitTopologyWithOpts(name, NimbusCalls.parseConf(jsonConf), topology, options); }
    @Override public void uploadNewCredentials(String topologyName, Credentials creds) throws TException {
        engine.uploadNewCredentials(topologyName, creds); }
    @Override public void killTopology(String topologyName) throws TException { engine.killTopology(topologyName); }
    @Override public void killTopologyWithOpts(String name, KillOptions options) throws TException {
        engine.killTopologyWithOpts(name, options); }
    @Override public void activate(String topologyName) throws TException { engine.activate(topologyName); }
    @Override public void deactivate(String topologyName) throws TException { engine.deactivate(topologyName); }
    @Override public void rebalance(String name, RebalanceOptions options) throws TException {
        engine.rebalance(name, options); }
    @Override public String getTopologyConf(String id) throws TException { return engine.getTopologyConf(id); }
    @Override public StormTopology getTopology(String id) throws TException { return engine.getTopology(id); }
    @Override public ClusterSummary getClusterInfo() throws TException { return engine.getClusterInfo(); }
    @Override public List<TopologySummary> getTopologySummaries() throws TException {
        return engine.getTopologySummaries(); }
    @Override public TopologySummary getTopologySummaryByName(String name) throws TException {
        return engine.getTopologySummaryByName(name); }
    @Override public TopologySummary getTopologySummary(String id) throws TException {
        return engine.getTopologySummary(id); }
    @Override public TopologyInfo getTopologyInfo(String id) throws TException { return engine.getTopologyInfo(id); }
    @Override public TopologyInfo getTopologyInfoByName(String name) throws TException {
        return engine.getTopologyInfoByName(name); }
    @Override public TopologyInfo getTopologyInfoWithOpts(String id, GetInfoOptions options) throws TException {
        return engine.getTopologyInfoWithOpts(id, options); }
    @Override public TopologyInfo getTopologyInfoByNameWithOpts(String name, GetInfoOptions options) throws TException {
        return engine.getTopologyInfoByNameWithOpts(name, options); }
    @Override public void advanceClusterTime(int secs) throws InterruptedException { engine.advanceClusterTime(secs); }
    @Override public void advanceClusterTime(int secs, int incSecs) throws InterruptedException {
        engine.advanceClusterTime(secs, incSecs); }
    @Override public IStormClusterState getClusterState() { return engine.getClusterState(); }
    @Override public String getTrackedId() { return engine.getTrackedId(); }
    @Override public boolean isRemoteBlobExists(String blobKey) throws AuthorizationException, TException {
        return engine.blobStore().isRemoteBlobExists(blobKey); }
    @Override public String beginCreateBlob(String key, SettableBlobMeta meta)
        throws AuthorizationException, KeyAlreadyExistsException, TException {
        return engine.blobStore().beginCreateBlob(key, meta); }
    @Override public String beginUpdateBlob(String key) throws AuthorizationException, KeyNotFoundException, TException {
        return engine.blobStore().beginUpdateBlob(key); }
    @Override public void uploadBlobChunk(String session, ByteBuffer chunk) throws AuthorizationException, TException {
        engine.blobStore().uploadBlobChunk(session, chunk); }
    @Override public void finishBlobUpload(String session) throws AuthorizationException, TException {
        engine.blobStore().finishBlobUpload(session); }
    @Override public void cancelBlobUpload(String session) throws AuthorizationException, TException {
        engine.blobStore().cancelBlobUpload(session); }
    @Override public ReadableBlobMeta getBlobMeta(String key) throws AuthorizationException, KeyNotFoundException,
        TException { return engine.blobStore().getBlobMeta(key); }
    @Override public void setBlobMeta(String key, SettableBlobMeta meta) throws AuthorizationException,
        KeyNotFoundException, TException { engine.blobStore().setBlobMeta(key, meta); }
    @Override public BeginDownloadResult beginBlobDownload(String key) throws AuthorizationException,
        KeyNotFoundException, TException { return engine.blobStore().beginBlobDownload(key); }
    @Override public ByteBuffer downloadBlobChunk(String session) throws AuthorizationException, TException {
        return engine.blobStore().downloadBlobChunk(session); }
    @Override public void deleteBlob(String key) throws AuthorizationException, KeyNotFoundException, TException {
        engine.blobStore().deleteBlob(key); }
    @Override public ListBlobsResult listBlobs(String session) throws TException {
        return engine.blobStore().listBlobs(session); }
    @Override public int getBlobReplication(String key) throws AuthorizationException, KeyNotFoundException, TException {
        return engine.blobStore().getBlobReplication(key); }
    @Override public int updateBlobReplication(String key, int replication) throws AuthorizationException,
        KeyNotFoundException, TException { return engine.blobStore().updateBlobReplication(key, replication); }
    @Override public void createStateInZookeeper(String key) throws TException {
        engine.blobStore().createStateInZookeeper(key); }
    @Override public String beginFileUpload() throws AuthorizationException, TException {
        return "in-process-upload-" + Utils.uuid() + ".jar"; }
    @Override public void uploadChunk(String location, ByteBuffer chunk) throws AuthorizationException, TException { }
    @Override public void finishFileUpload(String location) throws AuthorizationException, TException { }
    @Override public ByteBuffer downloadChunk(String id) throws AuthorizationException, TException {
        throw NotInProcess.call("downloadChunk"); }
    @Override public String getNimbusConf() throws AuthorizationException, TException {
        return JSONValue.toJSONString(daemonConf); }
    @Override public NimbusSummary getLeader() throws AuthorizationException, TException {
        return NimbusCalls.leader(startMillis); }
    @Override public boolean isTopologyNameAllowed(String name) throws AuthorizationException, TException {
        return NimbusCalls.isNameAllowed(engine, name); }
    @Override public StormTopology getUserTopology(String id) throws NotAliveException, AuthorizationException,
        TException { return engine.getTopology(id); }
    @Override public void setLogConfig(String name, LogConfig config) throws TException {
        throw NotInProcess.call("setLogConfig"); }
    @Override public LogConfig getLogConfig(String name) throws TException { throw NotInProcess.call("getLogConfig"); }
    @Override public void debug(String name, String component, boolean enable, double samplingPercentage)
        throws NotAliveException, AuthorizationException, TException { throw NotInProcess.call("debug"); }
    @Override public void setWorkerProfiler(String id, ProfileRequest profileRequest) throws TException {
        throw NotInProcess.call("setWorkerProfiler"); }
    @Override public List<ProfileRequest> getComponentPendingProfileActions(String id, String componentId,
        ProfileAction action) throws TException { throw NotInProcess.call("getComponentPendingProfileActions"); }
    @Override public TopologyPageInfo getTopologyPageInfo(String id, String window, boolean isIncludeSys)
        throws NotAliveException, AuthorizationException, TException { throw NotInProcess.call("getTopologyPageInfo"); }
    @Override public SupervisorPageInfo getSupervisorPageInfo(String id, String host, boolean isIncludeSys)
        throws NotAliveException, AuthorizationException, TException { throw NotInProcess.call("getSupervisorPageInfo"); }
    @Override public ComponentPageInfo getComponentPageInfo(String topologyId, String componentId, String window,
        boolean isIncludeSys) throws NotAliveException, AuthorizationException, TException {
        throw NotInProcess.call("getComponentPageInfo"); }
    @Override public TopologyHistoryInfo getTopologyHistory(String user) throws AuthorizationException, TException {
        throw NotInProcess.call("getTopologyHistory"); }
    @Override public List<OwnerResourceSummary> getOwnerResourceSummaries(String owner) throws AuthorizationException,
        TException { throw NotInProcess.call("getOwnerResourceSummaries"); }
    @Override public SupervisorAssignments getSupervisorAssignments(String node) throws AuthorizationException,
        TException { return null; }
    @Override public void sendSupervisorWorkerHeartbeats(SupervisorWorkerHeartbeats heartbeats)
        throws AuthorizationException, TException { }
    @Override public void sendSupervisorWorkerHeartbeat(SupervisorWorkerHeartbeat heatbeat)
        throws AuthorizationException, TException { }
    @Override public void processWorkerMetrics(WorkerMetrics metrics) throws TException { }

    /**
     * Builds a cluster as storm-server's builder does. Supervisors, ports, the Nimbus daemon, a group mapper, blob
     * store, cluster state or leader elector are accepted and have no effect: one process runs everything, with
     * Microburst's own blob store and cluster state.
     *
     * <p>Not thread-safe: one thread sets it up and builds.
     */
    public static class Builder {
        private final MicroburstCluster.Builder engine = new MicroburstCluster.Builder();
        private final ClusterSettings settings = new ClusterSettings();

        /** Checked as Storm's; no effect (as for the ports and the slot port below): no supervisors here. */
        public Builder withSupervisors(int supervisors) {
            ClusterSettings.checkSupervisors(supervisors);
            return this;
        }

        public Builder withPortsPerSupervisor(int portsPerSupervisor) {
            ClusterSettings.checkPortsPerSupervisor(portsPerSupervisor);
            return this;
        }

        /** The configuration under every topology's (replacing what was set before); null is ignored. */
        public Builder withDaemonConf(Map<String, Object> conf) {
            engine.withDaemonConf(conf);
            settings.daemonConf(conf);
            return this;
        }

        public Builder withDaemonConf(String key, Object value) {
            engine.withDaemonConf(key, value);
            settings.daemonConf(key, value);
            return this;
        }

        public Builder withGroupMapper(IGroupMappingServiceProvider groupMapper) { return this; }
        public Builder withSupervisorSlotPortMin(Number minPort) {
            ClusterSettings.checkSlotPortMin(minPort);
            return this;
        }

        public Builder withNimbusDaemon() { return this; }
        public Builder withNimbusDaemon(Boolean nimbusDaemon) { return this; }
        public Builder withSimulatedTime() { return withSimulatedTime(true); }

        /** Storm's simulated time ({@code Time}) on from build to close. */
        public Builder withSimulatedTime(boolean simulateTime) {
            engine.withSimulatedTime(simulateTime);
            return this;
        }

        public Builder withBlobStore(BlobStore store) { return this; }
        public Builder withClusterState(IStormClusterState clusterState) { return this; }
        public Builder withLeaderElector(ILeaderElector leaderElector) { return this; }
        /** A tracked cluster whose counters are kept under {@code trackId}; untracked if null. */
        public Builder withTracked(String trackId) {
            engine.withTracked(trackId);
            return this;
        }

        public Builder withTracked() { return withTracked(ClusterSettings.newTrackedId()); }

        public LocalCluster build() throws Exception {
            return new LocalCluster(this);
        }

        MicroburstCluster engine() {
            return engine.build();
        }

        Map<String, Object> clusterConf() {
            return ClusterSettings.clusterConf(settings.builderConf());
        }
    }

    /** What {@code submitTopology} returns: a copy of the submitted topology that kills it at once when closed. */
    public class LocalTopology extends StormTopology implements ILocalTopology {
        private static final long serialVersionUID = 1L;
        private final String topoName;

        public LocalTopology(String topoName, StormTopology topo) {
            super(topo);
            this.topoName = topoName;
        }

        @Override
        public void close() throws TException {
            killTopologyWithOpts(topoName, KILL_NOW);
        }
    }
}
