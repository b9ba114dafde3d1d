package io.microburst.cli.local;

import io.microburst.cluster.upgrade.UpgradeOptions;
import io.microburst.server.nimbus.ClusterNimbus;
import io.microburst.server.nimbus.SubmittedConf;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NimbusSummary;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.SubmitOptions;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.NimbusClient;
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
 * and bolts). Lifecycle calls and queries are {@link ClusterNimbus}'s.
 *
 * <p>The blob calls are the cluster's blob store's when it is a {@code MicroburstCluster}. Calls that only make
 * sense on a real cluster (heartbeats, profiling, log levels, UI pages) throw
 * {@link NotInProcessException}, unless the cluster is itself a {@link Nimbus.Iface}, which then answers them.
 * Thread-safe: a topology's main may call from any thread.
 */
public final class LocalNimbus extends ClusterNimbus {
    private final Map<String, Object> confOverrides;
    /** Topologies submitted through this adapter and not yet killed through it, in submission order. */
    private final Set<String> submitted = ConcurrentHashMap.newKeySet();
    /** Open jar uploads: location to bytes received so far. */
    private final Map<String, AtomicLong> openUploads = new ConcurrentHashMap<>();
    private final AtomicLong uploadSequence = new AtomicLong();
    private final AtomicLong uploadedBytes = new AtomicLong();
    /** Set while {@code --watch} reloads the jar: submits of running names are their new versions ({@link JarWatch}). */
    private volatile boolean reloading;

    /**
     * @param cluster the cluster every call is forwarded to; not closed by this object
     * @param confOverrides merged over the configuration of every submitted topology; copied
     */
    public LocalNimbus(ILocalCluster cluster, Map<String, Object> confOverrides) {
        super(cluster);
        this.confOverrides = Map.copyOf(confOverrides);
    }

    /** Names of the topologies submitted through this adapter and not killed through it, sorted. */
    public Set<String> submittedTopologies() {
        return new TreeSet<>(submitted);
    }

    /**
     * While set, a submit asks for {@code microburst.upgrade} and a running topology's name is allowed to
     * {@code StormSubmitter}'s check, so that the main run again from a changed jar upgrades what runs.
     */
    void reloading(boolean on) {
        reloading = on;
    }

    boolean reloading() {
        return reloading;
    }

    @Override
    public boolean isTopologyNameAllowed(String name) throws TException {
        return super.isTopologyNameAllowed(name) || reloading && submitted.contains(name);
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
        Map<String, Object> conf = SubmittedConf.parse(jsonConf);
        conf.putAll(confOverrides);
        if (reloading) {
            conf.put(UpgradeOptions.UPGRADE, true);
        }
        return conf;
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

    @Override
    public void killTopology(String name) throws TException {
        super.killTopology(name);
        submitted.remove(name);
    }

    @Override
    public void killTopologyWithOpts(String name, KillOptions options) throws TException {
        super.killTopologyWithOpts(name, options);
        submitted.remove(name);
    }

    // ---- queries ----------------------------------------------------------------------------------------------

    /** The {@code --conf} overrides, as JSON: they are this process's cluster-wide settings. */
    @Override
    public String getNimbusConf() {
        return JSONValue.toJSONString(confOverrides);
    }

    /** This process is the one and only Nimbus, hence always the leader. */
    @Override
    public NimbusSummary getLeader() {
        return new NimbusSummary("localhost", 0, uptimeSecs(), true, VersionInfo.getVersion());
    }

    /**
     * Calls with no meaning in one process are forwarded when the cluster is itself a Nimbus (Apache Storm's
     * LocalCluster is, and its workers report metrics and heartbeats through whatever NimbusClient is installed), and
     * refused otherwise.
     */
    @Override
    protected Nimbus.Iface refuse(String call) throws NotInProcessException {
        if (cluster instanceof Nimbus.Iface nimbus) {
            return nimbus;
        }
        throw new NotInProcessException(call);
    }
}
