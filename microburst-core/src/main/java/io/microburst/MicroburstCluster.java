package io.microburst;

import java.util.List;
import java.util.Map;
import io.microburst.blobstore.BlobStoreCalls;
import io.microburst.cluster.ClusterBlobStore;
import io.microburst.cluster.ClusterClock;
import io.microburst.cluster.ClusterSettings;
import io.microburst.cluster.ClusterStateView;
import io.microburst.cluster.ClusterViews;
import io.microburst.cluster.ComponentLoaders;
import io.microburst.cluster.NimbusFacade;
import io.microburst.cluster.OpenGuard;
import io.microburst.cluster.StormServerTypes;
import io.microburst.cluster.TopologyCommands;
import io.microburst.cluster.TopologySubmitter;
import io.microburst.cluster.TopologyTable;
import io.microburst.cluster.Tracking;
import io.microburst.cluster.upgrade.TopologyUpgrade;
import io.microburst.metrics.TaskStats;
import io.microburst.runtime.clock.SharedTimer;
import org.apache.storm.ILocalCluster;
import org.apache.storm.cluster.IStormClusterState;
import org.apache.storm.generated.AlreadyAliveException;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.Credentials;
import org.apache.storm.generated.GetInfoOptions;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.NumErrorsChoice;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.SubmitOptions;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.utils.Time;

/**
 * Runs Storm topologies in this process, on Microburst's runtime: use it wherever you would write
 * {@code new LocalCluster()}. There is no ZooKeeper, Nimbus, supervisor or worker process; each executor is one
 * thread and the whole cluster shares one timer thread. Several topologies may run at once, isolated from each other.
 * <p>This class is the {@link ILocalCluster} facade; {@code io.microburst.cluster} does the work: {@link ClusterSettings}
 * (what the {@link Builder} sets), {@link TopologySubmitter}, {@link ComponentLoaders}, {@link TopologyUpgrade}
 * (submission), {@link TopologyTable}, {@link TopologyCommands} (kill, rebalance...), {@link ClusterViews},
 * {@link ClusterClock}, {@link ClusterBlobStore}, {@link Tracking}, {@link StormServerTypes}, {@link OpenGuard}.
 * Thread-safe. {@link #close()} stops every topology and every thread the cluster started.
 */
public final class MicroburstCluster implements ILocalCluster {
    private final SharedTimer timer;
    private final TopologyTable topologies = new TopologyTable();
    private final TopologyCommands commands = new TopologyCommands(topologies);
    private final OpenGuard open = new OpenGuard("MicroburstCluster");
    private final long startMillis = System.currentTimeMillis();
    private final Tracking tracking; // null unless the cluster is tracked
    private final ClusterBlobStore blobs;
    private final TopologySubmitter submitter;
    private final TopologyUpgrade upgrades;
    private final ClusterClock clock;
    private Object metricRegistry; // guarded by this

    /** A cluster as Storm's {@code new LocalCluster()}: Storm's configuration, Trident batches every 50 ms. */
    public MicroburstCluster() {
        this(ClusterSettings.localMode());
    }

    /** A cluster whose configuration is Storm's overridden by {@code clusterConf}, as a real cluster's. */
    public MicroburstCluster(Map<String, Object> clusterConf) {
        this(clusterConf, null, null);
    }

    /** A tracked cluster, as Storm's {@code withTracked()} builds (see {@link ClusterSettings#trackedId()}). */
    public static MicroburstCluster tracked() {
        return new MicroburstCluster(new ClusterSettings().builderConf(), Tracking.start(), null);
    }

    private MicroburstCluster(Map<String, Object> overrides, Tracking tracking, Time.SimulatedTime simulatedTime) {
        this.tracking = tracking;
        StormClasses.initializeInBackground();
        Map<String, Object> clusterConf = ClusterSettings.clusterConf(overrides);
        // Made with simulated time on (by the builder or by the caller), the timers that Storm users see follow it.
        this.timer = new SharedTimer("microburst-timer", Time.isSimulating());
        this.clock = new ClusterClock(timer, topologies, simulatedTime);
        this.blobs = new ClusterBlobStore(clusterConf, clusterConf.get(MicroburstConfig.BLOBSTORE_DIR), open);
        this.submitter = new TopologySubmitter(clusterConf, topologies, timer, tracking, blobs, open);
        this.upgrades = new TopologyUpgrade(topologies, submitter);
    }

    /** Submits a topology, then calls the {@code ISubmitterHook} {@code conf} names, as Storm's LocalCluster. */
    @Override
    public LocalTopology submitTopology(String topologyName, Map<String, Object> conf, StormTopology topology)
        throws AlreadyAliveException, InvalidTopologyException {
        LocalTopology submitted = submitTopologyWithOpts(topologyName, conf, topology, null);
        submitter.notifySubmitterHook(topologyName, conf, topology);
        return submitted;
    }

    /** Submits a storm-server {@code TrackedTopology} or a {@link StormTopology} (see {@link StormServerTypes}). */
    public LocalTopology submitTopology(String topologyName, Map<String, Object> conf, Object topology)
        throws AlreadyAliveException, InvalidTopologyException {
        return submitTopologyWithOpts(topologyName, conf, StormServerTypes.topologyOf(topology), null);
    }

    /** As {@link #submitTopology(String, Map, Object)}, with submit options. */
    public LocalTopology submitTopologyWithOpts(String topologyName, Map<String, Object> conf, Object topology,
        SubmitOptions submitOpts) throws AlreadyAliveException, InvalidTopologyException {
        return submitTopologyWithOpts(topologyName, conf, StormServerTypes.topologyOf(topology), submitOpts);
    }

    @Override
    public LocalTopology submitTopologyWithOpts(String topologyName, Map<String, Object> conf, StormTopology topology,
        SubmitOptions submitOpts) throws AlreadyAliveException, InvalidTopologyException {
        upgrades.submit(topologyName, conf, topology, submitOpts); // or, asked, a running one's new version
        return new LocalTopology(topologyName, topology);
    }

    /** The blob store, in {@link MicroburstConfig#BLOBSTORE_DIR} or a temporary folder ({@link ClusterBlobStore}). */
    public BlobStoreCalls blobStore() {
        return blobs.calls();
    }

    @Override
    public void killTopology(String topologyName) throws NotAliveException {
        killTopologyWithOpts(topologyName, new KillOptions());
    }

    /** Kills as Storm does, after wait_secs; returns at once unless it is 0 ({@link TopologyCommands#kill}). */
    @Override
    public void killTopologyWithOpts(String name, KillOptions options) throws NotAliveException {
        commands.kill(name, options);
    }

    @Override
    public void activate(String topologyName) throws NotAliveException {
        commands.setActive(topologyName, true);
    }

    @Override
    public void deactivate(String topologyName) throws NotAliveException {
        commands.setActive(topologyName, false);
    }

    /** Changes executor counts and overrides as Nimbus does; returns at once ({@link TopologyCommands#rebalance}). */
    @Override
    public void rebalance(String name, RebalanceOptions options) throws NotAliveException, InvalidTopologyException {
        commands.rebalance(name, options);
    }

    @Override @Deprecated
    public void shutdown() {
        close();
    }

    @Override
    public String getTopologyConf(String id) throws NotAliveException {
        return ClusterViews.confJson(topologies.byId(id));
    }

    @Override
    public StormTopology getTopology(String id) throws NotAliveException {
        return topologies.byId(id).stored().topology().deepCopy();
    }

    @Override
    public ClusterSummary getClusterInfo() {
        return ClusterViews.clusterSummary(getTopologySummaries(),
            (int) ((System.currentTimeMillis() - startMillis) / 1000), liveExecutors());
    }

    @Override
    public List<TopologySummary> getTopologySummaries() {
        return upgrades.history().annotate(ClusterViews.summaries(topologies.all()));
    }

    @Override
    public TopologySummary getTopologySummaryByName(String name) throws NotAliveException {
        return upgrades.history().annotate(ClusterViews.summary(topologies.byName(name)));
    }

    @Override
    public TopologySummary getTopologySummary(String id) throws NotAliveException {
        return upgrades.history().annotate(ClusterViews.summary(topologies.byId(id)));
    }

    @Override
    public TopologyInfo getTopologyInfo(String id) throws NotAliveException {
        return ClusterViews.info(topologies.byId(id), NumErrorsChoice.ALL);
    }

    @Override
    public TopologyInfo getTopologyInfoByName(String name) throws NotAliveException {
        return ClusterViews.info(topologies.byName(name), NumErrorsChoice.ALL);
    }

    @Override
    public TopologyInfo getTopologyInfoWithOpts(String id, GetInfoOptions options) throws NotAliveException {
        return ClusterViews.info(topologies.byId(id), options);
    }

    @Override
    public TopologyInfo getTopologyInfoByNameWithOpts(String name, GetInfoOptions options) throws NotAliveException {
        return ClusterViews.info(topologies.byName(name), options);
    }

    /** Live per-task counters of a running topology (Microburst's own view; Storm's aggregate per executor). */
    public List<TaskStats> getTaskStats(String name) throws NotAliveException {
        return ClusterViews.taskStats(topologies.byName(name));
    }

    /** Live views of a running topology's executor threads: fused tasks, queue fill, backpressure time. */
    public List<io.microburst.runtime.topology.ThreadView> getThreadViews(String name) throws NotAliveException {
        return topologies.byName(name).threadViews();
    }

    /** A running topology's debug event sampling (Storm's {@code debug}), kept across task restarts and rebalances. */
    public io.microburst.runtime.task.EventSampling getEventSampling(String name) throws NotAliveException {
        return topologies.byName(name).eventSampling();
    }

    /** Every upgrade of each topology name, oldest first (a summary's {@code sched_status} tells the last). */
    public io.microburst.cluster.upgrade.UpgradeHistory getUpgradeHistory() {
        return upgrades.history();
    }

    /** Number of executor threads currently running, over all topologies. */
    public int liveExecutors() {
        return topologies.liveExecutorThreads();
    }

    @Override
    public void uploadNewCredentials(String topologyName, Credentials creds) {
        throw new UnsupportedOperationException("Credentials have no meaning in Microburst: topologies run as this process");
    }

    /** The part of the cluster state {@code Testing.completeTopology} reads (see {@link ClusterStateView}). */
    @Override
    public IStormClusterState getClusterState() {
        return ClusterStateView.of(this::getTopologySummaries);
    }

    /** As {@link #advanceClusterTime(int, int)} in steps of one second, as Storm's LocalCluster. */
    @Override
    public void advanceClusterTime(int secs) throws InterruptedException {
        advanceClusterTime(secs, 1);
    }

    /** Advances Storm's simulated clock by {@code secs}, {@code incSecs} at a time ({@link ClusterClock#advance}). */
    @Override
    public void advanceClusterTime(int secs, int incSecs) throws InterruptedException {
        clock.advance(secs, incSecs);
    }

    /** Waits until every topology is idle, or Storm's test timeout ({@link ClusterClock#waitForIdle}). */
    public boolean waitForIdle() throws InterruptedException {
        return clock.waitForIdle();
    }

    /** Waits up to {@code timeoutMs} until every topology is idle (as {@link #waitForIdle()}): a graceful stop's drain. */
    public boolean awaitIdle(long timeoutMs) throws InterruptedException {
        return io.microburst.runtime.topology.Quiescence.await(topologies.all(), timeoutMs);
    }

    /** The cluster's storm-server {@code StormMetricsRegistry}, as Storm's ({@link StormServerTypes}). */
    @SuppressWarnings("unchecked")
    public synchronized <T> T getMetricRegistry() {
        if (metricRegistry == null) {
            metricRegistry = StormServerTypes.newMetricsRegistry(ComponentLoaders.context());
        }
        return (T) metricRegistry;
    }

    /** This cluster seen as Nimbus, as Storm's {@code LocalCluster.getNimbus()} (see {@link NimbusFacade}). */
    public Nimbus.Iface getNimbus() {
        return NimbusFacade.of(this);
    }

    /** The id under which a {@link #tracked()} cluster keeps its counters; null, as Storm's, for any other. */
    @Override
    public String getTrackedId() {
        return tracking == null ? null : tracking.id();
    }

    /** Kills every topology (without waiting for in-flight work) and stops the timer thread. */
    @Override
    public void close() {
        if (!open.close()) {
            return;
        }
        topologies.stopAll();
        timer.close();
        StormClasses.awaitInitialized();
        blobs.close();
        submitter.close();
        Tracking.closeIfAny(tracking);
        clock.close();
    }

    /**
     * Builds a cluster as Storm's {@code LocalCluster.Builder} does, so that a Storm test changes only the line that
     * creates it; a front of {@link ClusterSettings}, which says what each setting means.
     */
    public static final class Builder {
        private final ClusterSettings settings = new ClusterSettings();

        /** Turns Storm's simulated time on from build to close ({@link ClusterSettings#simulatedTime()}). */
        public Builder withSimulatedTime() {
            return withSimulatedTime(true);
        }

        /** As {@link #withSimulatedTime()} when {@code simulate} is true. */
        public Builder withSimulatedTime(boolean simulate) {
            settings.simulatedTime(simulate);
            return this;
        }

        /** A tracked cluster, as {@link MicroburstCluster#tracked()}: {@code Testing.trackedWait} works with it. */
        public Builder withTracked() {
            return withTracked(ClusterSettings.newTrackedId());
        }

        /** A tracked cluster whose counters are kept under {@code id}; null, as in Storm, for an untracked one. */
        public Builder withTracked(String id) {
            settings.trackedId(id);
            return this;
        }

        /** The cluster's configuration, under each topology's; replaces what was set before; null is ignored. */
        public Builder withDaemonConf(Map<String, Object> conf) {
            settings.daemonConf(conf);
            return this;
        }

        /** Sets one entry of the cluster's configuration (see {@link #withDaemonConf(Map)}). */
        public Builder withDaemonConf(String key, Object value) {
            settings.daemonConf(key, value);
            return this;
        }

        /** Accepted for compatibility; no effect: there are no supervisors (every executor is a thread here). */
        public Builder withSupervisors(int supervisors) {
            ClusterSettings.checkSupervisors(supervisors);
            return this;
        }

        /** Accepted for compatibility; no effect: there are no worker slots. */
        public Builder withPortsPerSupervisor(int portsPerSupervisor) {
            ClusterSettings.checkPortsPerSupervisor(portsPerSupervisor);
            return this;
        }

        /** Accepted for compatibility; no effect: there are no worker slots. */
        public Builder withSupervisorSlotPortMin(Number minPort) {
            ClusterSettings.checkSlotPortMin(minPort);
            return this;
        }

        /** Accepted for compatibility; no effect: there is no Nimbus daemon (see {@link #getNimbus()}). */
        public Builder withNimbusDaemon() {
            return this;
        }

        /** Accepted for compatibility; no effect (see {@link #withNimbusDaemon()}). */
        public Builder withNimbusDaemon(Boolean nimbusDaemon) {
            return this;
        }

        /** Builds the cluster; with simulated time, turns it on first. */
        public MicroburstCluster build() {
            Time.SimulatedTime time = settings.simulatedTime() ? new Time.SimulatedTime() : null;
            try {
                return new MicroburstCluster(settings.builderConf(), Tracking.startIfTracked(settings.trackedId()), time);
            } catch (RuntimeException | Error e) {
                if (time != null) {
                    time.close();
                }
                throw e;
            }
        }
    }

    /** What {@code submitTopology} returns, as Storm's: a copy of the submitted topology that kills it when closed. */
    public final class LocalTopology extends StormTopology implements ILocalTopology {
        private static final long serialVersionUID = 1L;
        private final String name;

        LocalTopology(String name, StormTopology topology) {
            super(topology);
            this.name = name;
        }

        /** Kills the topology at once (wait 0), as Storm's handle does. */
        @Override
        public void close() throws NotAliveException {
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            killTopologyWithOpts(name, now);
        }
    }
}
