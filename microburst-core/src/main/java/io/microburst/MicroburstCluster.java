package io.microburst;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import io.microburst.blobstore.BlobLocalizer;
import io.microburst.blobstore.BlobStoreCalls;
import io.microburst.blobstore.LocalBlobStore;
import io.microburst.cluster.ClusterStateView;
import io.microburst.cluster.ClusterViews;
import io.microburst.cluster.RebalanceOverrides;
import io.microburst.cluster.NimbusFacade;
import io.microburst.cluster.TopologyTable;
import io.microburst.cluster.Tracking;
import io.microburst.cluster.TransactionalStateServer;
import io.microburst.metrics.TaskStats;
import io.microburst.plan.Submission;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.Quiescence;
import io.microburst.runtime.SharedTimer;
import io.microburst.runtime.ExecutorView;
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
import org.apache.storm.generated.TopologyInitialStatus;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.utils.Time;
import org.apache.storm.utils.Utils;
import org.apache.storm.utils.WrappedInvalidTopologyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs Storm topologies in this process, on Microburst's runtime: use it wherever you would write
 * {@code new LocalCluster()}. There is no ZooKeeper, Nimbus, supervisor or worker process; each executor is one
 * thread and the whole cluster shares one timer thread. Several topologies may run at once, isolated from each other.
 *
 * <p>Thread-safe. {@link #close()} stops every topology and every thread the cluster started.
 */
public final class MicroburstCluster implements ILocalCluster {
    private static final Logger LOG = LoggerFactory.getLogger(MicroburstCluster.class);
    private final Map<String, Object> clusterConf;
    private final SharedTimer timer;
    private final TopologyTable topologies = new TopologyTable();
    private final AtomicInteger submissions = new AtomicInteger();
    private final long startMillis = System.currentTimeMillis();
    private volatile boolean closed;
    private TransactionalStateServer stateServer;
    /** Null unless the cluster is tracked. */
    private final Tracking tracking;
    /** The blob store and its localizer, made at first use. */
    private BlobStoreCalls blobs;
    private BlobLocalizer localizer;
    /** The blob store's folder when the cluster made a temporary one (deleted at close), else null. */
    private Path blobTempDir;
    /** Storm's simulated time, when this cluster turned it on (see {@link Builder#withSimulatedTime()}); else null. */
    private final Time.SimulatedTime simulatedTime;
    /** How long {@link #advanceClusterTime} waits for the topologies to be idle, as Storm's test timeout. */
    private final long idleTimeoutMs = idleTimeoutMs();
    private volatile boolean idleTimeoutLogged;

    /**
     * What Storm's {@code LocalCluster} sets for every topology it runs, over defaults.yaml and storm.yaml: Trident
     * starts a batch every 50 ms rather than every 500 ms. A topology's own configuration still overrides it.
     */
    private static final Map<String, Object> LOCAL_MODE = Map.of(Config.TOPOLOGY_TRIDENT_BATCH_EMIT_INTERVAL_MILLIS, 50);
    /** storm-server's tracked topology, which {@link #submitTopology(String, Map, Object)} takes by name. */
    private static final String TRACKED_TOPOLOGY = "org.apache.storm.testing.TrackedTopology";
    private static final String METRICS_REGISTRY = "org.apache.storm.metric.StormMetricsRegistry";
    private Object metricRegistry;

    /**
     * A cluster as Storm's {@code new LocalCluster()}: Storm's default configuration (defaults.yaml, and storm.yaml if
     * one is on the class path) with LocalCluster's Trident batch interval of 50 ms. {@code microburst local} runs on
     * one.
     */
    public MicroburstCluster() {
        this(LOCAL_MODE);
    }

    /**
     * A cluster whose defaults are Storm's, overridden by {@code clusterConf}, as a real cluster's (the server runs on
     * one): without {@link #MicroburstCluster()}'s local-mode Trident interval unless {@code clusterConf} sets it.
     */
    public MicroburstCluster(Map<String, Object> clusterConf) {
        this(clusterConf, null);
    }

    /**
     * A tracked cluster, as Storm's {@code new LocalCluster.Builder().withTracked().build()}: storm-server's
     * {@code Testing.mkTrackedTopology} and {@code trackedWait} work with it (see {@link Tracking}). Like Storm's,
     * message timeouts are off (unless a topology turns them on), and {@code trackedWait} advances simulated time, so
     * run it with {@code Time.SimulatedTime} on.
     */
    public static MicroburstCluster tracked() {
        return new MicroburstCluster(builderConf(Map.of()), Tracking.start(), null);
    }

    /** Storm's LocalCluster.Builder configuration: message timeouts off, Trident's local batch interval, then {@code daemonConf}. */
    private static Map<String, Object> builderConf(Map<String, Object> daemonConf) {
        Map<String, Object> conf = new HashMap<>(LOCAL_MODE);
        conf.put(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, false);
        conf.putAll(daemonConf);
        return conf;
    }

    private MicroburstCluster(Map<String, Object> clusterConf, Tracking tracking) {
        this(clusterConf, tracking, null);
    }

    private MicroburstCluster(Map<String, Object> clusterConf, Tracking tracking, Time.SimulatedTime simulatedTime) {
        this.tracking = tracking;
        this.simulatedTime = simulatedTime;
        StormClasses.initializeInBackground();
        Map<String, Object> conf = new HashMap<>(Utils.readStormConfig());
        conf.putAll(clusterConf);
        conf.put(Config.STORM_CLUSTER_MODE, "local");
        this.clusterConf = conf;
        // Made with simulated time on (by the builder or by the caller), the timers that Storm users see follow it.
        this.timer = new SharedTimer("microburst-timer", Time.isSimulating());
    }

    /**
     * Submits a topology; then, as Storm's LocalCluster, calls the {@code storm.topology.submission.notifier.plugin}
     * named in {@code conf} (an {@link ISubmitterHook}) with the topology's info, {@code conf} and {@code topology}.
     */
    @Override
    public LocalTopology submitTopology(String topologyName, Map<String, Object> conf, StormTopology topology)
        throws AlreadyAliveException, InvalidTopologyException {
        LocalTopology submitted = submitTopologyWithOpts(topologyName, conf, topology, null);
        Object hookName = conf == null ? null : conf.get(Config.STORM_TOPOLOGY_SUBMISSION_NOTIFIER_PLUGIN);
        if (hookName != null) {
            notifySubmitterHook(String.valueOf(hookName), topologyName, conf, topology);
        }
        return submitted;
    }

    private void notifySubmitterHook(String hookName, String topologyName, Map<String, Object> conf,
                                     StormTopology topology) {
        ISubmitterHook hook;
        try {
            hook = (ISubmitterHook) Class.forName(hookName, true, contextLoader()).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalArgumentException("Cannot create the " + Config.STORM_TOPOLOGY_SUBMISSION_NOTIFIER_PLUGIN
                + " '" + hookName + "' of topology '" + topologyName + "': " + e, e);
        }
        try {
            hook.notify(getTopologyInfoByName(topologyName), conf, topology);
        } catch (NotAliveException e) {
            throw new IllegalStateException("Topology '" + topologyName + "' stopped before its "
                + Config.STORM_TOPOLOGY_SUBMISSION_NOTIFIER_PLUGIN + " was called", e);
        } catch (IllegalAccessException e) {
            throw new RuntimeException(e);
        }
    }

    /**
     * The class loader the topology's components are deserialized with, each once here: the context class loader, or,
     * when a class of theirs is not found there, the first loader of the calling code that finds them all (the loader
     * Java serialization itself picks, and so Storm's local mode): a Clojure test's {@code reify}, for one, lives only
     * in the loader of the code that made it.
     */
    private static ClassLoader topologyLoader(String topologyName, TopologyPlan plan) throws InvalidTopologyException {
        ClassLoader context = contextLoader();
        try {
            Submission.checkComponentsDeserialize(topologyName, plan, context);
            return context;
        } catch (InvalidTopologyException refused) {
            if (!classNotFound(refused)) {
                throw refused;
            }
            List<ClassLoader> callers = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
                .walk(frames -> frames.map(f -> f.getDeclaringClass().getClassLoader())
                    .filter(l -> l != null && l != context && l != ClassLoader.getPlatformClassLoader())
                    .distinct().toList());
            for (ClassLoader caller : callers) {
                try {
                    Submission.checkComponentsDeserialize(topologyName, plan, caller);
                    return caller;
                } catch (InvalidTopologyException e) {
                    // its classes are not all there either
                }
            }
            throw refused;
        }
    }

    private static boolean classNotFound(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ClassNotFoundException || t instanceof NoClassDefFoundError) {
                return true;
            }
        }
        return false;
    }

    private static ClassLoader contextLoader() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return loader != null ? loader : MicroburstCluster.class.getClassLoader();
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
        return submitTopologyWithOpts(topologyName, conf, stormTopologyOf(topology), null);
    }

    /** As {@link #submitTopology(String, Map, Object)}, with submit options. */
    public LocalTopology submitTopologyWithOpts(String topologyName, Map<String, Object> conf, Object topology,
                                                SubmitOptions submitOpts)
        throws AlreadyAliveException, InvalidTopologyException {
        return submitTopologyWithOpts(topologyName, conf, stormTopologyOf(topology), submitOpts);
    }

    /** The topology of a {@code StormTopology} or of a storm-server {@code TrackedTopology} (by its getTopology()). */
    private static StormTopology stormTopologyOf(Object topology) {
        if (topology == null || topology instanceof StormTopology) {
            return (StormTopology) topology;
        }
        for (Class<?> c = topology.getClass(); c != null; c = c.getSuperclass()) {
            if (TRACKED_TOPOLOGY.equals(c.getName())) {
                try {
                    return (StormTopology) c.getMethod("getTopology").invoke(topology);
                } catch (ReflectiveOperationException | ClassCastException e) {
                    throw new IllegalArgumentException("Cannot read the topology of " + topology.getClass().getName()
                        + " through " + TRACKED_TOPOLOGY + ".getTopology(): " + e, e);
                }
            }
        }
        throw new IllegalArgumentException("Cannot submit a " + topology.getClass().getName() + ": submitTopology takes a "
            + StormTopology.class.getName() + " or a " + TRACKED_TOPOLOGY);
    }

    @Override
    public LocalTopology submitTopologyWithOpts(String topologyName, Map<String, Object> conf, StormTopology topology,
                                                SubmitOptions submitOpts)
        throws AlreadyAliveException, InvalidTopologyException {
        checkOpen();
        Submission.validateName(topologyName);
        String stormId = topologyName + "-" + submissions.incrementAndGet() + "-" + System.currentTimeMillis() / 1000;
        Map<String, Object> topoConf = Submission.topologyConf(clusterConf, topologyName, stormId, conf);
        if (TransactionalStateServer.isNeededBy(topology) && (conf == null
            || !conf.containsKey(Config.TRANSACTIONAL_ZOOKEEPER_SERVERS))) {
            topoConf.putAll(transactionalStateServer().topologyConf());
        }
        StormTopology submitted = tracking == null ? topology : tracking.instrument(topology);
        // As Nimbus, which validates what a topology sets, not its own configuration under it
        TopologyPlan plan = TopologyPlan.build(topologyName, stormId, topoConf, submitted, clusterConf);
        boolean active = submitOpts == null || submitOpts.get_initial_status() != TopologyInitialStatus.INACTIVE;
        ClassLoader loader = topologyLoader(topologyName, plan);
        boolean usesBlobs = topoConf.get(Config.TOPOLOGY_BLOBSTORE_MAP) != null;
        if (usesBlobs) {
            BlobLocalizer.validate(topoConf, blobStore().store());
        }
        TopologyRuntime runtime;
        synchronized (this) {
            checkOpen();
            TopologyRuntime existing = topologies.listed(topologyName);
            if (existing != null && !existing.isStopped()) {
                throw new AlreadyAliveException("Topology with name '" + topologyName + "' is already running");
            }
            if (existing != null) {
                topologies.forget(existing);
            }
            // made only once the checks pass: it creates the topology's working directory
            // (a topology that halts itself stays listed, with its reason, until killed)
            runtime = new TopologyRuntime(plan, loader, timer, halted -> { });
            topologies.add(runtime);
        }
        try {
            if (usesBlobs) {
                TopologyRuntime started = runtime;
                blobLocalizer().localize(stormId, topoConf, runtime.workingDirectory(), () -> !started.isStopped());
            }
            runtime.start(active);
        } catch (InvalidTopologyException e) {
            runtime.stopNow();
            topologies.forget(runtime);
            throw e;
        } catch (RuntimeException | Error e) {
            // whatever failed, nothing is left behind: threads, timers, working directory, the listing
            runtime.stopNow();
            topologies.forget(runtime);
            if (e instanceof Error error) {
                throw error;
            }
            InvalidTopologyException invalid = new WrappedInvalidTopologyException("Topology '" + topologyName
                + "' could not start: " + e.getMessage());
            invalid.initCause(e);
            throw invalid;
        }
        return new LocalTopology(topologyName, topology);
    }

    /**
     * The cluster's blob store, with the Nimbus blob calls ({@code beginCreateBlob}, {@code uploadBlobChunk} ...) that
     * {@code NimbusBlobStore} uses; topologies get the blobs their {@code topology.blobstore.map} names in their
     * working directory, kept current. The blobs live in {@link MicroburstConfig#BLOBSTORE_DIR} when the cluster
     * configuration sets it (kept across runs), else in a temporary folder deleted at {@link #close()}.
     */
    public synchronized BlobStoreCalls blobStore() {
        checkOpen();
        if (blobs == null) {
            Object dir = clusterConf.get(MicroburstConfig.BLOBSTORE_DIR);
            Path root;
            try {
                if (dir != null) {
                    root = Path.of(dir.toString());
                } else {
                    blobTempDir = Files.createTempDirectory("microburst-blobs-");
                    root = blobTempDir;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create a folder for the blob store", e);
            }
            localizer = new BlobLocalizer(new LocalBlobStore(root, clusterConf));
            blobs = new BlobStoreCalls(localizer.store(), clusterConf, localizer::userOf);
        }
        return blobs;
    }

    private synchronized BlobLocalizer blobLocalizer() {
        blobStore();
        return localizer;
    }

    private synchronized TransactionalStateServer transactionalStateServer() {
        checkOpen();
        if (stateServer == null) {
            stateServer = TransactionalStateServer.start();
        }
        return stateServer;
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
        if (!Time.isSimulating()) {
            throw new IllegalStateException("Cannot advance cluster time: simulated time is off (build the cluster "
                + "with new MicroburstCluster.Builder().withSimulatedTime(), or start org.apache.storm.utils.Time"
                + ".SimulatedTime)");
        }
        int step = Math.max(1, incSecs);
        waitForIdle();
        for (int left = secs; left > 0; left -= step) {
            Time.advanceTimeSecs(Math.min(step, left));
            timer.fireDueOnStormClock();
            waitForIdle();
        }
    }

    /**
     * Waits until every topology of this cluster is idle: every executor has taken a whole turn that found nothing to
     * do, twice in a row with no work in between (an executor sleeping on Storm's simulated clock counts as idle).
     * Gives up after Storm's test timeout; returns whether the cluster was idle.
     */
    public boolean waitForIdle() throws InterruptedException {
        boolean idle = Quiescence.await(topologies.all(), idleTimeoutMs);
        if (!idle && !idleTimeoutLogged) {
            idleTimeoutLogged = true;
            LOG.warn("The topologies were not idle after {} ms (a spout that never stops emitting?); advancing "
                + "simulated time anyway", idleTimeoutMs);
        }
        return idle;
    }

    /** Storm's test timeout: {@code STORM_TEST_TIMEOUT_MS} from the environment, else 10 s. */
    private static long idleTimeoutMs() {
        String value = System.getenv("STORM_TEST_TIMEOUT_MS");
        if (value != null) {
            try {
                return Math.max(1, Long.parseLong(value.trim()));
            } catch (NumberFormatException e) {
                LOG.warn("STORM_TEST_TIMEOUT_MS is not a number: '{}'; using 10000", value);
            }
        }
        return 10_000;
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
            try {
                metricRegistry = Class.forName(METRICS_REGISTRY, true, contextLoader()).getConstructor().newInstance();
            } catch (ReflectiveOperationException | LinkageError e) {
                throw new IllegalStateException("getMetricRegistry() makes a " + METRICS_REGISTRY
                    + ", which is in org.apache.storm:storm-server (as LocalDRPC is): add it to the class path", e);
            }
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
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
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
        synchronized (this) {
            if (localizer != null) {
                localizer.close();
            }
            if (blobTempDir != null) {
                try (java.util.stream.Stream<Path> paths = Files.walk(blobTempDir)) {
                    paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                } catch (IOException ignored) {
                    // a temporary folder left behind is harmless
                }
            }
            if (stateServer != null) {
                stateServer.close();
                stateServer = null;
            }
        }
        if (tracking != null) {
            tracking.close();
        }
        if (simulatedTime != null) {
            simulatedTime.close();
        }
    }

    private static NumErrorsChoice errorChoice(GetInfoOptions options) {
        return options != null && options.is_set_num_err_choice() ? options.get_num_err_choice() : NumErrorsChoice.ALL;
    }

    private int uptimeSecs() {
        return (int) ((System.currentTimeMillis() - startMillis) / 1000);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("This MicroburstCluster is closed");
        }
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
        private Map<String, Object> daemonConf = new HashMap<>();
        private boolean simulatedTime;
        private String trackId;

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
            this.simulatedTime = simulate;
            return this;
        }

        /**
         * A tracked cluster, as {@link MicroburstCluster#tracked()}: {@code TrackedTopology} and
         * {@code Testing.trackedWait} work with it.
         */
        public Builder withTracked() {
            return withTracked("microburst-tracked-" + Utils.uuid());
        }

        /** A tracked cluster whose counters are kept under {@code id}; null, as in Storm, for an untracked one. */
        public Builder withTracked(String id) {
            this.trackId = id;
            return this;
        }

        /**
         * The cluster's configuration, over Storm's defaults: as Nimbus's in Storm, it is under every topology's own
         * configuration (e.g. {@code topology.enable.message.timeouts}). Replaces what was set before; null is ignored.
         */
        public Builder withDaemonConf(Map<String, Object> conf) {
            if (conf != null) {
                this.daemonConf = new HashMap<>(conf);
            }
            return this;
        }

        /** Sets one entry of the cluster's configuration (see {@link #withDaemonConf(Map)}). */
        public Builder withDaemonConf(String key, Object value) {
            this.daemonConf.put(key, value);
            return this;
        }

        /** Accepted for compatibility; no effect: there are no supervisors (every executor is a thread here). */
        public Builder withSupervisors(int supervisors) {
            if (supervisors < 0) {
                throw new IllegalArgumentException("supervisors cannot be negative: " + supervisors);
            }
            return this;
        }

        /** Accepted for compatibility; no effect: there are no worker slots. */
        public Builder withPortsPerSupervisor(int portsPerSupervisor) {
            if (portsPerSupervisor < 0) {
                throw new IllegalArgumentException("supervisor ports cannot be negative: " + portsPerSupervisor);
            }
            return this;
        }

        /** Accepted for compatibility; no effect: there are no worker slots. */
        public Builder withSupervisorSlotPortMin(Number minPort) {
            if (minPort != null && minPort.intValue() <= 0) {
                throw new IllegalArgumentException("port must be positive: " + minPort);
            }
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
            // As Storm's builder: message timeouts off and Trident's local batch interval, unless the daemon conf
            // says otherwise (Storm's own tests turn timeouts on with withDaemonConf when they test them).
            Map<String, Object> conf = builderConf(daemonConf);
            Time.SimulatedTime time = simulatedTime ? new Time.SimulatedTime() : null;
            try {
                return new MicroburstCluster(conf, trackId == null ? null : Tracking.start(trackId), time);
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
