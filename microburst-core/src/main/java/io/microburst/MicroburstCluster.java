package io.microburst;

import java.util.ArrayList;
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
import io.microburst.cluster.RebalanceOverrides;
import io.microburst.cluster.StormServerTypes;
import io.microburst.cluster.TopologySubmitter;
import io.microburst.cluster.TopologyTable;
import io.microburst.cluster.Tracking;
import io.microburst.metrics.TaskStats;
import io.microburst.runtime.ExecutorView;
import io.microburst.runtime.SharedTimer;
import io.microburst.runtime.ThreadView;
import io.microburst.runtime.TopologyRuntime;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.ISubmitterHook;
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
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.utils.Time;
import org.apache.storm.utils.Utils;

/**
 * Runs Storm topologies in this process, on Microburst's runtime: use it wherever you would write
 * {@code new LocalCluster()}. There is no ZooKeeper, Nimbus, supervisor or worker process; each executor is one
 * thread and the whole cluster shares one timer thread. Several topologies may run at once, isolated from each other.
 *
 * <p>This class is the {@link ILocalCluster} facade; the work is done by classes of {@code io.microburst.cluster}:
 * {@link ClusterSettings} (what {@link Builder} sets), {@link TopologySubmitter} (submission: configuration, checks,
 * planning, start) with {@link ComponentLoaders} (the class loader of the components), {@link TopologyTable} (the
 * topologies listed), {@link ClusterViews} (the thrift views), {@link ClusterClock} (simulated time),
 * {@link ClusterBlobStore} (the blob store), {@link Tracking} (a tracked cluster's counters),
 * {@link StormServerTypes} (the storm-server types taken by name) and {@link OpenGuard} (open or closed).
 *
 * <p>Thread-safe. {@link #close()} stops every topology and every thread the cluster started.
 */
public final class MicroburstCluster implements ILocalCluster {
    private final Map<String, Object> clusterConf;
    private final SharedTimer timer;
    private final TopologyTable topologies = new TopologyTable();
    private final OpenGuard open = new OpenGuard("MicroburstCluster");
    private final long startMillis = System.currentTimeMillis();
    /** Null unless the cluster is tracked. */
    private final Tracking tracking;
    private final ClusterBlobStore blobs;
    private final TopologySubmitter submitter;
    private final ClusterClock clock;
    /** Guarded by this. */
    private Object metricRegistry;

    /**
     * A cluster as Storm's {@code new LocalCluster()}: Storm's default configuration (defaults.yaml, and storm.yaml if
     * one is on the class path) with LocalCluster's Trident batch interval of 50 ms. {@code microburst local} runs on
     * one.
     */
    public MicroburstCluster() {
        this(ClusterSettings.localMode());
    }

    /**
     * A cluster whose defaults are Storm's, overridden by {@code clusterConf}, as a real cluster's (the server runs on
     * one): without {@link #MicroburstCluster()}'s local-mode Trident interval unless {@code clusterConf} sets it.
     */
    public MicroburstCluster(Map<String, Object> clusterConf) {
        this(clusterConf, null, null);
    }

    /**
     * A tracked cluster, as Storm's {@code new LocalCluster.Builder().withTracked().build()}: storm-server's
     * {@code Testing.mkTrackedTopology} and {@code trackedWait} work with it (see {@link Tracking}). Like Storm's,
     * message timeouts are off (unless a topology turns them on), and {@code trackedWait} advances simulated time, so
     * run it with {@code Time.SimulatedTime} on.
     */
    public static MicroburstCluster tracked() {
        return new MicroburstCluster(new ClusterSettings().builderConf(), Tracking.start(), null);
    }

    private MicroburstCluster(Map<String, Object> clusterConf, Tracking tracking, Time.SimulatedTime simulatedTime) {
        this.tracking = tracking;
        StormClasses.initializeInBackground();
        this.clusterConf = ClusterSettings.clusterConf(clusterConf);
        // Made with simulated time on (by the builder or by the caller), the timers that Storm users see follow it.
        this.timer = new SharedTimer("microburst-timer", Time.isSimulating());
        this.clock = new ClusterClock(timer, topologies, simulatedTime);
        this.blobs = new ClusterBlobStore(this.clusterConf, this.clusterConf.get(MicroburstConfig.BLOBSTORE_DIR), open);
        this.submitter = new TopologySubmitter(this.clusterConf, topologies, timer, tracking, blobs, open);
    }

    /**
     * Submits a topology; then, as Storm's LocalCluster, calls the {@code storm.topology.submission.notifier.plugin}
     * named in {@code conf} (an {@link ISubmitterHook}) with the topology's info, {@code conf} and {@code topology}.
     */
    @Override
    public LocalTopology submitTopology(String topologyName, Map<String, Object> conf, StormTopology topology)
        throws AlreadyAliveException, InvalidTopologyException {
        LocalTopology submitted = submitTopologyWithOpts(topologyName, conf, topology, null);
        submitter.notifySubmitterHook(topologyName, conf, topology);
        return submitted;
    }

    /**
     * Submits a storm-server {@code org.apache.storm.testing.TrackedTopology} (or a {@link StormTopology}), as Storm's
     * {@code LocalCluster.submitTopology(String, Map, TrackedTopology)}: Storm's tests compile against this cluster
     * unchanged. The parameter is {@code Object} so that a program without storm-server on its class path still
     * compiles calls that pass a {@code StormTopology} (which pick the overload above).
     *
     * @throws IllegalArgumentException naming the type when {@code topology} is neither
     */
    public LocalTopology submitTopology(String topologyName, Map<String, Object> conf, Object topology)
        throws AlreadyAliveException, InvalidTopologyException {
        return submitTopologyWithOpts(topologyName, conf, StormServerTypes.topologyOf(topology), null);
    }

    /** As {@link #submitTopology(String, Map, Object)}, with submit options. */
    public LocalTopology submitTopologyWithOpts(String topologyName, Map<String, Object> conf, Object topology,
                                                SubmitOptions submitOpts)
        throws AlreadyAliveException, InvalidTopologyException {
        return submitTopologyWithOpts(topologyName, conf, StormServerTypes.topologyOf(topology), submitOpts);
    }

    @Override
    public LocalTopology submitTopologyWithOpts(String topologyName, Map<String, Object> conf, StormTopology topology,
                                                SubmitOptions submitOpts)
        throws AlreadyAliveException, InvalidTopologyException {
        submitter.submit(topologyName, conf, topology, submitOpts);
        return new LocalTopology(topologyName, topology);
    }

    /**
     * The cluster's blob store, with the Nimbus blob calls ({@code beginCreateBlob}, {@code uploadBlobChunk} ...) that
     * {@code NimbusBlobStore} uses; topologies get the blobs their {@code topology.blobstore.map} names in their
     * working directory, kept current. The blobs live in {@link MicroburstConfig#BLOBSTORE_DIR} when the cluster
     * configuration sets it (kept across runs), else in a temporary folder deleted at {@link #close()}.
     */
    public BlobStoreCalls blobStore() {
        return blobs.calls();
    }

    @Override
    public void killTopology(String topologyName) throws NotAliveException {
        killTopologyWithOpts(topologyName, new KillOptions());
    }

    /**
     * Kills as Storm does: the spouts are deactivated at once and the topology is listed as KILLED; work in flight
     * goes on for wait_secs (default: the topology's message timeout), then every task is closed or cleaned up and
     * the topology disappears. With a wait this returns at once; with {@code wait_secs} 0 it returns once all has
     * stopped.
     */
    @Override
    public void killTopologyWithOpts(String name, KillOptions options) throws NotAliveException {
        TopologyRuntime runtime = topologies.byName(name);
        int wait = options != null && options.is_set_wait_secs() ? options.get_wait_secs()
            : runtime.plan().defaultWaitSecs();
        runtime.kill(wait, () -> topologies.forget(runtime));
    }

    @Override
    public void activate(String topologyName) throws NotAliveException {
        topologies.byName(topologyName).setActive(true);
    }

    @Override
    public void deactivate(String topologyName) throws NotAliveException {
        topologies.byName(topologyName).setActive(false);
    }

    /**
     * Changes executor counts per component, each between 1 and the component's task count, after wait_secs
     * (default: the message timeout) with the spouts deactivated, as Storm does; returns at once. The number of
     * workers has no meaning in one process and is ignored. As Nimbus, the topology_conf_overrides and
     * topology_resources_overrides change, when the new executors start, what {@link #getTopologyConf} and
     * {@link #getTopology} return; the components keep running with the configuration they were submitted with.
     */
    @Override
    public void rebalance(String name, RebalanceOptions options) throws NotAliveException, InvalidTopologyException {
        TopologyRuntime runtime = topologies.byName(name);
        Map<String, Integer> counts = options == null || options.get_num_executors() == null
            ? Map.of() : options.get_num_executors();
        runtime.plan().checkRebalance(counts);
        int wait = options != null && options.is_set_wait_secs() ? options.get_wait_secs()
            : runtime.plan().defaultWaitSecs();
        Map<String, Object> confOverrides = options == null || !options.is_set_topology_conf_overrides() ? Map.of()
            : RebalanceOverrides.confOverrides(name, options.get_topology_conf_overrides());
        Map<String, Map<String, Double>> resources = options == null || !options.is_set_topology_resources_overrides()
            ? Map.of() : options.get_topology_resources_overrides();
        // as Nimbus, when the new executors start
        runtime.rebalance(counts, wait, () -> {
            if (!resources.isEmpty()) {
                runtime.storeTopology(RebalanceOverrides.withResources(runtime.storedTopology(), resources));
            }
            if (!confOverrides.isEmpty()) {
                runtime.storeConf(RebalanceOverrides.withConf(runtime.storedConf(), confOverrides));
            }
        });
    }

    @Override
    @Deprecated
    public void shutdown() {
        close();
    }

    @Override
    public String getTopologyConf(String id) throws NotAliveException {
        // The transactional state server's secret stays in the process.
        return JSONValue.toJSONString(Utils.redactValue(topologies.byId(id).storedConf(),
            Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_PAYLOAD));
    }

    @Override
    public StormTopology getTopology(String id) throws NotAliveException {
        return topologies.byId(id).storedTopology().deepCopy();
    }

    @Override
    public ClusterSummary getClusterInfo() {
        return ClusterViews.clusterSummary(getTopologySummaries(), uptimeSecs(), liveExecutors());
    }

    @Override
    public List<TopologySummary> getTopologySummaries() {
        List<TopologySummary> result = new ArrayList<>();
        for (TopologyRuntime r : topologies.all()) {
            result.add(ClusterViews.summary(r));
        }
        return result;
    }

    @Override
    public TopologySummary getTopologySummaryByName(String name) throws NotAliveException {
        return ClusterViews.summary(topologies.byName(name));
    }

    @Override
    public TopologySummary getTopologySummary(String id) throws NotAliveException {
        return ClusterViews.summary(topologies.byId(id));
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
        return ClusterViews.info(topologies.byId(id), errorChoice(options));
    }

    @Override
    public TopologyInfo getTopologyInfoByNameWithOpts(String name, GetInfoOptions options) throws NotAliveException {
        return ClusterViews.info(topologies.byName(name), errorChoice(options));
    }

    /**
     * Per-task counters of a running topology (Microburst's own view; Storm's thrift views aggregate per executor).
     * Each entry is live: read it again to see new counts.
     */
    public List<TaskStats> getTaskStats(String name) throws NotAliveException {
        List<TaskStats> result = new ArrayList<>();
        for (ExecutorView v : topologies.byName(name).executorViews()) {
            result.addAll(v.tasks());
        }
        return result;
    }

    /**
     * Live views of a running topology's executor threads: the tasks fused into each, queue fill and backpressure time
     * (Microburst's own view; Storm has no such notion).
     */
    public List<ThreadView> getThreadViews(String name) throws NotAliveException {
        return topologies.byName(name).threadViews();
    }

    /** Number of executor threads currently running, over all topologies. */
    public int liveExecutors() {
        int n = 0;
        for (TopologyRuntime r : topologies.all()) {
            n += r.liveExecutorThreads();
        }
        return n;
    }

    @Override
    public void uploadNewCredentials(String topologyName, Credentials creds) {
        throw new UnsupportedOperationException("Credentials have no meaning in Microburst: every topology runs in this "
            + "process, with this process's own identity");
    }

    /**
     * What can be said of the cluster's state without ZooKeeper: active topologies, their ids, bases and whether they
     * are assigned, as storm-server's {@code Testing.completeTopology} reads them; other methods of the view throw,
     * naming the method (see {@link ClusterStateView}).
     */
    @Override
    public IStormClusterState getClusterState() {
        return ClusterStateView.of(this::getTopologySummaries);
    }

    /**
     * Advances Storm's simulated clock ({@code org.apache.storm.utils.Time}) by {@code secs} in steps of one second,
     * as Storm's LocalCluster does; like Storm's, it requires simulated time to be on. See
     * {@link #advanceClusterTime(int, int)}.
     */
    @Override
    public void advanceClusterTime(int secs) throws InterruptedException {
        advanceClusterTime(secs, 1);
    }

    /**
     * Advances Storm's simulated clock by {@code secs}, {@code incSecs} at a time. On a cluster made while simulated
     * time was on ({@link Builder#withSimulatedTime()}, or inside {@code Time.SimulatedTime}), tick tuples, message
     * timeouts and IMetric collection follow that clock: each step fires what came due, then waits until the cluster
     * is idle (every executor found nothing to do, twice in a row; an executor sleeping on the simulated clock counts
     * as idle), as it does before the first step. Storm waits only for its daemons' timers there; waiting for the
     * executors too makes each step see the effects of the previous one. The wait gives up after Storm's test timeout
     * (10 s, or {@code STORM_TEST_TIMEOUT_MS}) when a spout never stops emitting, and time advances anyway.
     */
    @Override
    public void advanceClusterTime(int secs, int incSecs) throws InterruptedException {
        clock.advance(secs, incSecs);
    }

    /**
     * Waits until every topology of this cluster is idle: every executor has taken a whole turn that found nothing to
     * do, twice in a row with no work in between (an executor sleeping on Storm's simulated clock counts as idle).
     * Gives up after Storm's test timeout; returns whether the cluster was idle.
     */
    public boolean waitForIdle() throws InterruptedException {
        return clock.waitForIdle();
    }

    /**
     * A storm-server {@code org.apache.storm.metric.StormMetricsRegistry}, as Storm's
     * {@code LocalCluster.getMetricRegistry()}, for {@code new LocalDRPC(cluster.getMetricRegistry())}: made at the first
     * call, one per cluster. Its type is a type parameter so that programs without storm-server on their class path
     * (where {@code LocalDRPC} is too) still compile against this class.
     *
     * @throws IllegalStateException when storm-server is not on the class path
     */
    @SuppressWarnings("unchecked")
    public synchronized <T> T getMetricRegistry() {
        if (metricRegistry == null) {
            metricRegistry = StormServerTypes.newMetricsRegistry(ComponentLoaders.context());
        }
        return (T) metricRegistry;
    }

    /**
     * This cluster seen as Nimbus, as Storm's {@code LocalCluster.getNimbus()}: each call goes to this cluster's
     * method of the same name (activate, deactivate, kill, rebalance, the topology views...); submitTopology takes its
     * configuration as JSON. Calls this cluster has no method for throw {@link UnsupportedOperationException}.
     */
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
        List<TopologyRuntime> all = topologies.all();
        for (TopologyRuntime r : all) {
            r.stopNow();
            topologies.forget(r);
        }
        for (TopologyRuntime r : all) {
            r.awaitHelperThreads();
        }
        timer.close();
        StormClasses.awaitInitialized();
        blobs.close();
        submitter.close();
        if (tracking != null) {
            tracking.close();
        }
        clock.close();
    }

    private static NumErrorsChoice errorChoice(GetInfoOptions options) {
        return options != null && options.is_set_num_err_choice() ? options.get_num_err_choice() : NumErrorsChoice.ALL;
    }

    private int uptimeSecs() {
        return (int) ((System.currentTimeMillis() - startMillis) / 1000);
    }

    /**
     * Builds a cluster as Storm's {@code LocalCluster.Builder} does, so that a test written for Storm's local cluster
     * changes only the line that creates it: {@code new MicroburstCluster.Builder().withSimulatedTime().build()}.
     * Simulated time, tracking and the daemon configuration mean here what they mean in Storm; supervisors, ports
     * and the Nimbus daemon do not exist in Microburst, and those settings are accepted and have no effect. As with
     * Storm's builder, message timeouts are off and Trident starts a batch every 50 ms unless the daemon
     * configuration (or the topology's) says otherwise.
     */
    public static final class Builder {
        private final ClusterSettings settings = new ClusterSettings();

        /**
         * Turns Storm's simulated time on ({@code org.apache.storm.utils.Time}) for the cluster's lifetime: it starts
         * at 0 when the cluster is built and ends when it is closed. Tick tuples, message timeouts and IMetric
         * collection then follow it, and advance only with {@link MicroburstCluster#advanceClusterTime} (or anything
         * else that advances {@code Time}).
         */
        public Builder withSimulatedTime() {
            return withSimulatedTime(true);
        }

        /** As {@link #withSimulatedTime()} when {@code simulate} is true. */
        public Builder withSimulatedTime(boolean simulate) {
            settings.simulatedTime(simulate);
            return this;
        }

        /**
         * A tracked cluster, as {@link MicroburstCluster#tracked()}: {@code TrackedTopology} and
         * {@code Testing.trackedWait} work with it.
         */
        public Builder withTracked() {
            return withTracked(ClusterSettings.newTrackedId());
        }

        /** A tracked cluster whose counters are kept under {@code id}; null, as in Storm, for an untracked one. */
        public Builder withTracked(String id) {
            settings.trackedId(id);
            return this;
        }

        /**
         * The cluster's configuration, over Storm's defaults: as Nimbus's in Storm, it is under every topology's own
         * configuration (e.g. {@code topology.enable.message.timeouts}). Replaces what was set before; null is ignored.
         */
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
                String id = settings.trackedId();
                return new MicroburstCluster(settings.builderConf(), id == null ? null : Tracking.start(id), time);
            } catch (RuntimeException | Error e) {
                if (time != null) {
                    time.close();
                }
                throw e;
            }
        }
    }

    /**
     * What {@code submitTopology} returns, as Storm's {@code LocalCluster.LocalTopology}: a copy of the submitted
     * topology that kills it when closed.
     */
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
