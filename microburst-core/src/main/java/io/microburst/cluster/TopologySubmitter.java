package io.microburst.cluster;

import io.microburst.blobstore.BlobLocalizer;
import io.microburst.config.ConfigKeys;
import io.microburst.plan.Submission;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.topology.TopologyRuntime;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.Config;
import org.apache.storm.ISubmitterHook;
import org.apache.storm.generated.AlreadyAliveException;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.NumErrorsChoice;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.SubmitOptions;
import org.apache.storm.generated.TopologyInitialStatus;
import org.apache.storm.utils.WrappedInvalidTopologyException;

/**
 * Submits topologies to a cluster, as Nimbus and Storm's LocalCluster do: gives each its storm id, merges its
 * configuration over the cluster's (with the address of Trident's in-process state server when it needs one, made at
 * the first such submit), counts what it sends when the cluster is tracked, plans it, picks the class loader of its
 * components ({@link ComponentLoaders}), checks its blobs and its name, then lists and starts it. A submit that fails
 * leaves nothing behind.
 *
 * <p>Threading: any thread; listing takes the cluster's {@link OpenGuard}, the rest runs on the submitting thread.
 */
public final class TopologySubmitter {
    private final Map<String, Object> clusterConf;
    private final TopologyTable topologies;
    private final SharedTimer timer;
    /** Null unless the cluster is tracked. */
    private final Tracking tracking;
    private final ClusterBlobStore blobs;
    private final OpenGuard open;
    private final AtomicInteger submissions = new AtomicInteger();
    /** Guarded by {@link #open}. */
    private TransactionalStateServer stateServer;

    /** {@code tracking}: the tracked cluster's counters, or null. */
    public TopologySubmitter(Map<String, Object> clusterConf, TopologyTable topologies, SharedTimer timer,
                             Tracking tracking, ClusterBlobStore blobs, OpenGuard open) {
        this.clusterConf = clusterConf;
        this.topologies = topologies;
        this.timer = timer;
        this.tracking = tracking;
        this.blobs = blobs;
        this.open = open;
    }

    /**
     * Submits and starts a topology.
     *
     * @throws AlreadyAliveException when a topology of that name is running
     * @throws InvalidTopologyException naming what is wrong, or wrapping what failed while it started
     */
    public void submit(String topologyName, Map<String, Object> conf, StormTopology topology, SubmitOptions submitOpts)
        throws AlreadyAliveException, InvalidTopologyException {
        Prepared prepared = prepare(topologyName, conf, topology);
        boolean active = submitOpts == null || submitOpts.get_initial_status() != TopologyInitialStatus.INACTIVE;
        TopologyRuntime runtime = list(prepared.plan(), prepared.loader());
        start(runtime, prepared, active);
    }

    /**
     * A submission checked and planned, not yet listed or started: its plan (with a new storm id), the class loader
     * its components deserialize with, its configuration, and whether it uses blobs.
     */
    public record Prepared(TopologyPlan plan, ClassLoader loader, Map<String, Object> topoConf, boolean usesBlobs) {
    }

    /** Checks and plans a submission (see {@link #submit}); nothing is listed, started or created. */
    public Prepared prepare(String topologyName, Map<String, Object> conf, StormTopology topology)
        throws InvalidTopologyException {
        open.check();
        Submission.validateName(topologyName);
        String stormId = topologyName + "-" + submissions.incrementAndGet() + "-" + System.currentTimeMillis() / 1000;
        Map<String, Object> topoConf = Submission.topologyConf(clusterConf, topologyName, stormId, conf);
        // A key set to null is unset, as in Storm's defaults.yaml, which a submitter reading Storm's configuration sends
        if (TransactionalStateServer.isNeededBy(topology) && (conf == null
            || conf.get(Config.TRANSACTIONAL_ZOOKEEPER_SERVERS) == null)) {
            topoConf.putAll(transactionalStateServer().topologyConf());
        }
        StormTopology submitted = tracking == null ? topology : tracking.instrument(topology);
        // As Nimbus, which validates what a topology sets, not its own configuration under it
        TopologyPlan plan = TopologyPlan.build(topologyName, stormId, topoConf, submitted, clusterConf);
        ClassLoader loader = ComponentLoaders.forComponents(topologyName, plan);
        boolean usesBlobs = topoConf.get(Config.TOPOLOGY_BLOBSTORE_MAP) != null;
        if (usesBlobs) {
            BlobLocalizer.validate(topoConf, blobs.calls().store());
        }
        return new Prepared(plan, loader, topoConf, usesBlobs);
    }

    /**
     * Lists a prepared submission in place of {@code running}, a topology of the same name, which the caller has
     * stopped; returns its runtime, not started.
     */
    public TopologyRuntime listInPlaceOf(Prepared prepared, TopologyRuntime running) {
        return listInPlaceOf(unlisted(prepared), running);
    }

    /** A runtime for a prepared submission, neither listed nor started (a new version started beside the old). */
    public TopologyRuntime unlisted(Prepared prepared) {
        synchronized (open) {
            open.check();
            return new TopologyRuntime(prepared.plan(), prepared.loader(), timer, halted -> { });
        }
    }

    /** Lists {@code runtime} in place of {@code running}, a topology of the same name, which the caller has stopped. */
    public TopologyRuntime listInPlaceOf(TopologyRuntime runtime, TopologyRuntime running) {
        synchronized (open) {
            open.check();
            topologies.replace(running, runtime);
            return runtime;
        }
    }

    /**
     * As Storm's LocalCluster after a submit, calls the {@code storm.topology.submission.notifier.plugin} named in
     * {@code conf} (an {@link ISubmitterHook}), if any, with the topology's info, {@code conf} and {@code topology}.
     */
    public void notifySubmitterHook(String topologyName, Map<String, Object> conf, StormTopology topology) {
        Object hookName = conf == null ? null : conf.get(Config.STORM_TOPOLOGY_SUBMISSION_NOTIFIER_PLUGIN);
        if (hookName == null) {
            return;
        }
        ISubmitterHook hook;
        try {
            hook = (ISubmitterHook) Class.forName(String.valueOf(hookName), true, ComponentLoaders.context())
                .getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalArgumentException("Cannot create the " + Config.STORM_TOPOLOGY_SUBMISSION_NOTIFIER_PLUGIN
                + " '" + hookName + "' of topology '" + topologyName + "': " + e, e);
        }
        try {
            hook.notify(ClusterViews.info(topologies.byName(topologyName), NumErrorsChoice.ALL), conf, topology);
        } catch (NotAliveException e) {
            throw new IllegalStateException("Topology '" + topologyName + "' stopped before its "
                + Config.STORM_TOPOLOGY_SUBMISSION_NOTIFIER_PLUGIN + " was called", e);
        } catch (IllegalAccessException e) {
            throw new RuntimeException(e);
        }
    }

    /** Stops Trident's state server, if one was started; call once the topologies are stopped. */
    public void close() {
        synchronized (open) {
            if (stateServer != null) {
                stateServer.close();
                stateServer = null;
            }
        }
    }

    /** Lists the topology in place of a stopped one of the same name, unless one is running or the cluster closed. */
    private TopologyRuntime list(TopologyPlan plan, ClassLoader loader) throws AlreadyAliveException {
        synchronized (open) {
            open.check();
            TopologyRuntime existing = topologies.listed(plan.name());
            if (existing != null && !existing.isStopped()) {
                throw new AlreadyAliveException("Topology with name '" + plan.name() + "' is already running");
            }
            if (existing != null) {
                topologies.forget(existing);
            }
            // made only once the checks pass: it creates the topology's working directory
            // (a topology that halts itself stays listed, with its reason, until killed)
            TopologyRuntime runtime = new TopologyRuntime(plan, loader, timer, halted -> { });
            topologies.add(runtime);
            return runtime;
        }
    }

    /**
     * Starts a listed runtime; one that fails to start is stopped and unlisted.
     *
     * @throws InvalidTopologyException wrapping what failed
     */
    public void start(TopologyRuntime runtime, Prepared prepared, boolean active) throws InvalidTopologyException {
        try {
            if (prepared.usesBlobs()) {
                blobs.localizer().localize(runtime.plan().stormId(), prepared.topoConf(), runtime.workingDirectory(),
                    () -> !runtime.isStopped());
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
            InvalidTopologyException invalid = new WrappedInvalidTopologyException("Topology '" + runtime.plan().name()
                + "' could not start: " + e.getMessage());
            invalid.initCause(e);
            throw invalid;
        }
    }

    /**
     * A hold on the transactional state server's new sessions (see {@link StateReadHold}) when {@code next} keeps its
     * Trident state there, else null.
     */
    public StateReadHold holdTransactionalState(Prepared next) {
        synchronized (open) {
            TransactionalStateServer server = stateServer;
            Object port = next.topoConf().get(Config.TRANSACTIONAL_ZOOKEEPER_PORT);
            if (server == null || port == null || !String.valueOf(server.port()).equals(String.valueOf(port))) {
                return null;
            }
            Object root = next.topoConf().get(Config.TRANSACTIONAL_ZOOKEEPER_ROOT);
            return server.holdNewSessions(root == null ? "/transactional" : root.toString());
        }
    }

    private TransactionalStateServer transactionalStateServer() {
        synchronized (open) {
            open.check();
            if (stateServer == null) {
                Object workDir = clusterConf.get(ConfigKeys.WORK_DIR);
                stateServer = TransactionalStateServer.start(workDir == null ? null : Path.of(workDir.toString()));
            }
            return stateServer;
        }
    }
}
