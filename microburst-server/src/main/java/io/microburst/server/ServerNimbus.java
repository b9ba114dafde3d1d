package io.microburst.server;

import io.microburst.MicroburstCluster;
import io.microburst.cluster.upgrade.UpgradeOptions;
import io.microburst.server.nimbus.ClusterNimbus;
import io.microburst.server.nimbus.SubmittedConf;
import io.microburst.server.web.ClusterPageInfos;
import io.microburst.server.web.DebugSampling;
import io.microburst.server.web.PageInfos;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.storm.generated.AlreadyAliveException;
import org.apache.storm.generated.ComponentPageInfo;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.LogConfig;
import org.apache.storm.generated.NimbusSummary;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.OwnerResourceSummary;
import org.apache.storm.generated.ProfileAction;
import org.apache.storm.generated.ProfileRequest;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.SubmitOptions;
import org.apache.storm.generated.SupervisorPageInfo;
import org.apache.storm.generated.TopologyHistoryInfo;
import org.apache.storm.generated.TopologyInitialStatus;
import org.apache.storm.generated.TopologyPageInfo;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.thrift.TApplicationException;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.VersionInfo;
import org.apache.storm.utils.WrappedInvalidTopologyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Nimbus service of {@code microburst server}: {@link ClusterNimbus} over a {@link MicroburstCluster}, plus what a
 * long-running service adds: uploaded jars kept on disk, one {@link TopologyClassLoader} per topology, every
 * submission, activation, deactivation and kill written to the {@link TopologyStore} before it is acknowledged, and
 * log levels. {@link #restore} brings the stored topologies back after a restart.
 *
 * <p>Thread-safe: Thrift calls arrive on several worker threads; calls that change a topology are serialised.
 */
final class ServerNimbus extends ClusterNimbus {
    private static final Logger LOG = LoggerFactory.getLogger(ServerNimbus.class);

    private final MicroburstCluster microburst;
    private final Map<String, Object> serverConf;
    private final JarUploads uploads;
    private final TopologyStore store;
    private final LogLevels logLevels;
    private final String advertisedHost;
    private final WorkerLogs workerLogs;
    private final DebugSampling debugSampling;
    private volatile int advertisedPort;
    /** Class loaders of the topologies started here, closed once their topology is gone from the cluster. */
    private final Map<String, TopologyClassLoader> loaders = new ConcurrentHashMap<>();
    private final ServerUpgrades upgrades;

    ServerNimbus(MicroburstCluster cluster, Map<String, Object> serverConf, JarUploads uploads, TopologyStore store,
                 ScheduledExecutorService scheduler, String advertisedHost, WorkerLogs workerLogs) throws IOException {
        super(cluster);
        this.workerLogs = workerLogs;
        this.debugSampling = new DebugSampling(cluster, workerLogs.root(), store);
        this.microburst = cluster;
        this.serverConf = serverConf;
        this.uploads = uploads;
        this.store = store;
        this.upgrades = new ServerUpgrades(store, cluster.getUpgradeHistory());
        this.logLevels = new LogLevels(scheduler);
        this.advertisedHost = advertisedHost;
        scheduler.scheduleWithFixedDelay(this::closeUnusedLoaders, 1, 1, TimeUnit.SECONDS);
        scheduler.scheduleWithFixedDelay(uploads::expire, uploads.expireEveryMillis(), uploads.expireEveryMillis(),
            TimeUnit.MILLISECONDS);
    }

    void advertisedPort(int port) {
        this.advertisedPort = port;
    }

    /** Starts every stored topology in its stored status; one that fails to start is logged and left stored. */
    synchronized void restore() throws IOException {
        for (TopologyStore.Stored stored : store.loadAll()) {
            try {
                start(stored, stored.conf());
                upgrades.restored(stored.name());
                LOG.info("Restored topology {} ({})", stored.name(), stored.status());
            } catch (TException | IOException | RuntimeException e) {
                LOG.error("Cannot restore topology {}: {}", stored.name(), e.toString());
            }
        }
    }

    // ---- submission -------------------------------------------------------------------------------------------

    @Override
    public String beginFileUpload() throws TException {
        return uploads.begin();
    }

    @Override
    public void uploadChunk(String location, ByteBuffer chunk) throws TException {
        uploads.chunk(location, chunk);
    }

    @Override
    public void finishFileUpload(String location) throws TException {
        uploads.finish(location);
    }

    @Override
    public void submitTopology(String name, String uploadedJarLocation, String jsonConf, StormTopology topology)
        throws TException {
        submitTopologyWithOpts(name, uploadedJarLocation, jsonConf, topology, new SubmitOptions());
    }

    /**
     * Submits; with {@code microburst.upgrade} set (by {@code microburst upgrade}) and the name running, the
     * submission is the topology's new version ({@code TopologyUpgrade}), the stored one kept as its previous version.
     */
    @Override
    public synchronized void submitTopologyWithOpts(String name, String uploadedJarLocation, String jsonConf,
                                                    StormTopology topology, SubmitOptions options) throws TException {
        TopologyNames.validate(name);
        Map<String, Object> conf = SubmittedConf.parse(jsonConf);
        boolean announced = upgrades.expected(name);
        boolean upgrade = UpgradeOptions.requested(conf) && (announced || isRunning(name));
        if (isRunning(name) && !upgrade) {
            throw new AlreadyAliveException("Topology with name '" + name + "' is already running");
        }
        if (topology == null) {
            throw new WrappedInvalidTopologyException("submitTopology: topology '" + name + "' has no topology structure");
        }
        Path jar = uploads.take("submitTopology of '" + name + "'", uploadedJarLocation);
        TopologyInitialStatus status = options != null && options.get_initial_status() == TopologyInitialStatus.INACTIVE
            ? TopologyInitialStatus.INACTIVE : TopologyInitialStatus.ACTIVE;
        install(name, jar, conf, topology, status, upgrade);
    }

    /** Stores and starts a topology or, with {@code upgrade}, a running one's new version; a failure undoes both. */
    private void install(String name, Path jar, Map<String, Object> conf, StormTopology topology,
                         TopologyInitialStatus status, boolean upgrade) throws TException {
        TopologyStore.Stored stored;
        try {
            stored = upgrades.save(name, jar, conf, topology, status, upgrade);
        } catch (IOException e) {
            JarUploads.deleteQuietly(jar);
            throw new TApplicationException(TApplicationException.INTERNAL_ERROR, "submitTopology of '" + name
                + "': cannot store the topology: " + e.getMessage());
        }
        try {
            start(stored, conf);
        } catch (TException | IOException | RuntimeException e) {
            upgrades.undo(name, upgrade);
            if (e instanceof TException t) {
                throw t;
            }
            LOG.warn("Submitting topology {} failed", name, e);
            throw new WrappedInvalidTopologyException("submitTopology of '" + name + "' failed: "
                + ThriftErrors.plain(e));
        }
        upgrades.started(name);
        LOG.info("{} topology {} ({})", upgrade ? "Upgraded" : "Submitted", name, status);
    }

    /** {@code microburst upgrade}'s calls: the announcement of an upgrade, or a rollback. Under the lock. */
    private void upgradeCall(String name, boolean rollback) throws TException {
        if (!isRunning(name)) {
            throw new NotAliveException("No topology named '" + name + "' is running");
        }
        if (!rollback) {
            upgrades.expect(name);
            return;
        }
        TopologyStore.Stored target = upgrades.rollbackTarget(name);
        install(name, target.jar(), target.conf(), target.topology(), target.status(), true);
    }

    /**
     * Starts a stored topology in its own class loader, which becomes the context class loader of the submission,
     * submitting {@code conf} (the stored one, or one asking an upgrade).
     */
    private void start(TopologyStore.Stored stored, Map<String, Object> conf) throws TException, IOException {
        TopologyClassLoader loader = new TopologyClassLoader(stored.name(), stored.jar(), ServerNimbus.class.getClassLoader());
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        SubmitOptions options = new SubmitOptions(stored.status());
        workerLogs.begin(loader);
        try {
            cluster.submitTopologyWithOpts(stored.name(), conf, RebalancedTopology.of(stored.topology(),
                stored.executors()), options);
        } catch (TException | RuntimeException e) {
            workerLogs.end(loader);
            loader.close();
            throw e;
        } finally {
            thread.setContextClassLoader(previous);
        }
        try {
            workerLogs.started(loader, microburst.getTopologySummaryByName(stored.name()).get_id());
            debugSampling.restore(stored.name());
        } catch (IOException | TException | RuntimeException e) {
            LOG.warn("Topology {} runs without its worker log file or debug options: {}", stored.name(), e.toString());
        }
        TopologyClassLoader replaced = loaders.put(stored.name(), loader);
        if (replaced != null) {
            workerLogs.end(replaced);
            LoaderRelease.release(replaced);
            replaced.close();
        }
    }

    @Override
    public boolean isTopologyNameAllowed(String name) throws TException {
        return name != null && TopologyNames.storable(name) && (super.isTopologyNameAllowed(name) || upgrades.expects(name));
    }

    private boolean isRunning(String name) {
        for (TopologySummary summary : microburst.getTopologySummaries()) {
            if (name.equals(summary.get_name())) {
                return true;
            }
        }
        return false;
    }

    // ---- lifecycle, stored before it is acknowledged -----------------------------------------------------------

    @Override
    public synchronized void killTopology(String name) throws TException {
        super.killTopology(name);
        forgetKilled(name);
    }

    @Override
    public synchronized void killTopologyWithOpts(String name, KillOptions options) throws TException {
        super.killTopologyWithOpts(name, options);
        forgetKilled(name);
    }

    private void forgetKilled(String name) {
        forgetStored(name);
        upgrades.forget(name);
        logLevels.forget(name);
    }

    @Override
    public synchronized void activate(String name) throws TException {
        super.activate(name);
        storeStatus(name, TopologyInitialStatus.ACTIVE);
    }

    @Override
    public synchronized void deactivate(String name) throws TException {
        super.deactivate(name);
        storeStatus(name, TopologyInitialStatus.INACTIVE);
    }

    /** Rebalances, and stores the new executor counts before acknowledging, so that a restart keeps them. */
    @Override
    public synchronized void rebalance(String name, RebalanceOptions options) throws TException {
        String overrides = options != null && options.is_set_topology_conf_overrides()
            ? options.get_topology_conf_overrides() : "";
        if (overrides.contains(UpgradeOptions.ROLLBACK) || overrides.contains(UpgradeOptions.EXPECT)) {
            upgradeCall(name, overrides.contains(UpgradeOptions.ROLLBACK)); // microburst upgrade, over Storm's Thrift
            return;
        }
        super.rebalance(name, options);
        if (options != null && options.get_num_executors() != null && !options.get_num_executors().isEmpty()) {
            try {
                store.addExecutorCounts(name, options.get_num_executors());
            } catch (IOException e) {
                throw new TApplicationException(TApplicationException.INTERNAL_ERROR, "cannot store the executor counts "
                    + "of '" + name + "': " + e);
            }
        }
    }

    private void storeStatus(String name, TopologyInitialStatus status) throws TException {
        try {
            store.setStatus(name, status);
        } catch (IOException e) {
            throw new TApplicationException(TApplicationException.INTERNAL_ERROR, "cannot store the status of '" + name
                + "': " + e);
        }
    }

    private void forgetStored(String name) {
        try {
            store.remove(name);
        } catch (IOException e) {
            LOG.error("Cannot remove the stored topology {}: {}", name, e.toString());
        }
    }

    /** Closes the class loaders of topologies no longer in the cluster (killed after their wait, or halted). */
    private void closeUnusedLoaders() {
        for (Map.Entry<String, TopologyClassLoader> e : loaders.entrySet()) {
            if (!isRunning(e.getKey()) && loaders.remove(e.getKey(), e.getValue())) {
                workerLogs.end(e.getValue());
                LoaderRelease.release(e.getValue());
                try {
                    e.getValue().close();
                } catch (IOException | RuntimeException ignored) {
                    // nothing loads from it any more
                }
            }
        }
    }

    // ---- queries and settings ---------------------------------------------------------------------------------

    @Override
    public String getNimbusConf() {
        return JSONValue.toJSONString(ServerConfig.shown(serverConf));
    }

    /** The only Nimbus, hence the leader, at the address clients reach it on. */
    @Override
    public NimbusSummary getLeader() {
        return new NimbusSummary(advertisedHost, advertisedPort, uptimeSecs(), true, VersionInfo.getVersion());
    }

    /** Storm's debug event sampling, shared with the web server's REST API. */
    DebugSampling debugSampling() {
        return debugSampling;
    }

    @Override
    public synchronized void debug(String name, String component, boolean enable, double samplingPercentage)
        throws TException {
        debugSampling.debug(this, name, component, enable, samplingPercentage);
    }

    @Override
    public void setWorkerProfiler(String id, ProfileRequest request) throws TException {
        debugSampling.profileRequests().set(this, id, request);
    }

    @Override
    public List<ProfileRequest> getComponentPendingProfileActions(String id, String component, ProfileAction action)
        throws TException {
        return debugSampling.profileRequests().pending(this, id, component, action);
    }

    @Override
    public TopologyPageInfo getTopologyPageInfo(String id, String window, boolean includeSys) throws TException {
        TopologyPageInfo page = PageInfos.topology(this, id, window);
        page.set_debug_options(debugSampling.options(page.get_id(), null));
        return page;
    }

    @Override
    public ComponentPageInfo getComponentPageInfo(String id, String component, String window, boolean includeSys)
        throws TException {
        ComponentPageInfo page = PageInfos.component(this, id, component, window);
        page.set_debug_options(debugSampling.options(page.get_topology_id(), component));
        return page;
    }

    @Override
    public SupervisorPageInfo getSupervisorPageInfo(String id, String host, boolean includeSys) throws TException {
        return ClusterPageInfos.supervisor(this, id, host);
    }

    @Override
    public TopologyHistoryInfo getTopologyHistory(String user) throws TException {
        return ClusterPageInfos.history(this);
    }

    @Override
    public List<OwnerResourceSummary> getOwnerResourceSummaries(String owner) throws TException {
        return ClusterPageInfos.owners(this, owner);
    }

    @Override
    public void setLogConfig(String name, LogConfig config) throws TException {
        logLevels.set(runningName(name), config);
    }

    @Override
    public LogConfig getLogConfig(String name) throws TException {
        return logLevels.get(runningName(name));
    }

    /** Storm's log calls take a topology id; a name is accepted too. Returns the name. */
    private String runningName(String idOrName) throws NotAliveException {
        return microburst.getTopologySummary(idOrName).get_name();
    }
}
