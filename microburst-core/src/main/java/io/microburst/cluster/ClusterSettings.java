package io.microburst.cluster;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.utils.Utils;

/**
 * What a cluster is built with, as Storm's {@code LocalCluster.Builder} takes it: the daemon configuration, simulated
 * time, the tracked id; and the configurations a cluster starts from. {@code MicroburstCluster.Builder} is a front of
 * this class. Supervisors, ports and the Nimbus daemon do not exist here: their settings are checked as Storm checks
 * them and have no effect.
 *
 * <p>Threading: confined to the thread that builds the cluster; the static methods are pure.
 */
public final class ClusterSettings {
    /**
     * What Storm's {@code LocalCluster} sets for every topology it runs, over defaults.yaml and storm.yaml: Trident
     * starts a batch every 50 ms rather than every 500 ms. A topology's own configuration still overrides it.
     */
    private static final Map<String, Object> LOCAL_MODE = Map.of(Config.TOPOLOGY_TRIDENT_BATCH_EMIT_INTERVAL_MILLIS, 50);

    private Map<String, Object> daemonConf = new HashMap<>();
    private boolean simulatedTime;
    private String trackedId;

    /** The overrides of Storm's {@code new LocalCluster()}: its Trident batch interval of 50 ms. */
    public static Map<String, Object> localMode() {
        return LOCAL_MODE;
    }

    /**
     * The configuration of a cluster: Storm's (defaults.yaml, and storm.yaml if one is on the class path), then
     * {@code overrides}, in local mode.
     */
    public static Map<String, Object> clusterConf(Map<String, Object> overrides) {
        Map<String, Object> conf = new HashMap<>(Utils.readStormConfig());
        conf.putAll(overrides);
        conf.put(Config.STORM_CLUSTER_MODE, "local");
        return conf;
    }

    /**
     * The overrides of a cluster Storm's {@code LocalCluster.Builder} builds: message timeouts off and the local
     * Trident batch interval, then the daemon configuration (Storm's own tests turn timeouts on with it when they test
     * them).
     */
    public Map<String, Object> builderConf() {
        Map<String, Object> conf = new HashMap<>(LOCAL_MODE);
        conf.put(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, false);
        conf.putAll(daemonConf);
        return conf;
    }

    /**
     * Whether the cluster turns Storm's simulated time ({@code org.apache.storm.utils.Time}) on for its lifetime: it
     * starts at 0 when the cluster is built and ends when it is closed. Tick tuples, message timeouts and IMetric
     * collection then follow it, and advance only with the cluster's {@code advanceClusterTime} (or anything else that
     * advances {@code Time}).
     */
    public boolean simulatedTime() {
        return simulatedTime;
    }

    public void simulatedTime(boolean simulate) {
        this.simulatedTime = simulate;
    }

    /**
     * The id a tracked cluster keeps its counters under ({@link Tracking}); null for an untracked one. storm-server's
     * {@code Testing.mkTrackedTopology} and {@code trackedWait} work with a tracked cluster. Like Storm's, it has
     * message timeouts off (unless a topology turns them on), and {@code trackedWait} advances simulated time, so run
     * it with {@code Time.SimulatedTime} on.
     */
    public String trackedId() {
        return trackedId;
    }

    public void trackedId(String id) {
        this.trackedId = id;
    }

    /** A fresh tracked id. */
    public static String newTrackedId() {
        return "microburst-tracked-" + Utils.uuid();
    }

    /**
     * Replaces the daemon configuration; null is ignored. As Nimbus's in Storm, it is under every topology's own
     * configuration (e.g. {@code topology.enable.message.timeouts}).
     */
    public void daemonConf(Map<String, Object> conf) {
        if (conf != null) {
            this.daemonConf = new HashMap<>(conf);
        }
    }

    public void daemonConf(String key, Object value) {
        daemonConf.put(key, value);
    }

    /** Checks a supervisor count, which has no effect. */
    public static void checkSupervisors(int supervisors) {
        if (supervisors < 0) {
            throw new IllegalArgumentException("supervisors cannot be negative: " + supervisors);
        }
    }

    /** Checks a port count per supervisor, which has no effect. */
    public static void checkPortsPerSupervisor(int portsPerSupervisor) {
        if (portsPerSupervisor < 0) {
            throw new IllegalArgumentException("supervisor ports cannot be negative: " + portsPerSupervisor);
        }
    }

    /** Checks a supervisor's first slot port, which has no effect. */
    public static void checkSlotPortMin(Number minPort) {
        if (minPort != null && minPort.intValue() <= 0) {
            throw new IllegalArgumentException("port must be positive: " + minPort);
        }
    }
}
