package io.microburst.bench.runtime;

import io.microburst.MicroburstCluster;
import io.microburst.bench.workload.Workload;
import java.util.Map;
import org.apache.storm.ILocalCluster;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;

/**
 * A workload submitted to an in-process cluster through {@link ILocalCluster}: Microburst's or Storm's. The topology object
 * and the configuration come from the workload, built once, the same for both. Closing kills the topology and shuts the
 * cluster (and Storm's ZooKeeper) down.
 */
final class ClusterDeployment implements Deployment {
    private final ILocalCluster cluster;
    private final AutoCloseable extra;
    private final String topologyName;

    private ClusterDeployment(ILocalCluster cluster, AutoCloseable extra, String topologyName) {
        this.cluster = cluster;
        this.extra = extra;
        this.topologyName = topologyName;
    }

    /** Builds the topology and configuration of {@code workload} for {@code runtime}; the launch starts the cluster. */
    static Runtimes.Launch prepare(RuntimeId runtime, Workload workload) {
        Map<String, Object> conf = workload.config();
        if (runtime == RuntimeId.STORM_TUNED) {
            StormProfile.applyTuned(conf, workload.latencySensitive());
        }
        StormTopology topology = workload.topology();
        return () -> start(runtime, workload, conf, topology);
    }

    /** Starts a cluster for {@code runtime} and submits {@code topology} to it. */
    private static ClusterDeployment start(RuntimeId runtime, Workload workload, Map<String, Object> conf,
                                           StormTopology topology) throws Exception {
        LoopbackZookeeper zookeeper = null;
        ILocalCluster cluster = null;
        try {
            if (runtime == RuntimeId.MICROBURST) {
                cluster = new MicroburstCluster();
            } else {
                zookeeper = new LoopbackZookeeper();
                cluster = new LocalCluster(zookeeper.host(), zookeeper.port());
            }
            cluster.submitTopology(workload.name(), conf, topology);
            return new ClusterDeployment(cluster, zookeeper, workload.name());
        } catch (Exception | Error e) {
            closeQuietly(cluster, zookeeper, e);
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            // The measurement is over: no need for the default grace period that lets in-flight tuples finish.
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts(topologyName, now);
        } finally {
            try {
                cluster.close();
            } finally {
                if (extra != null) {
                    extra.close();
                }
            }
        }
    }

    private static void closeQuietly(ILocalCluster cluster, AutoCloseable extra, Throwable cause) {
        for (AutoCloseable c : new AutoCloseable[] {cluster, extra}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception suppressed) {
                    cause.addSuppressed(suppressed);
                }
            }
        }
    }
}
