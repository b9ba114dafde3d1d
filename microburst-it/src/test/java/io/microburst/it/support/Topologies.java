package io.microburst.it.support;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.TopologySummary;

/** Naming, configuring and stopping topologies in tests. */
public final class Topologies {
    private static final AtomicLong NEXT_NAME = new AtomicLong();

    private Topologies() {
    }

    /** A topology name no other test uses, so tests can share one cluster. */
    public static String uniqueName(String prefix) {
        return prefix + "-" + NEXT_NAME.incrementAndGet() + "-" + Long.toHexString(System.nanoTime() & 0xffffff);
    }

    /**
     * A topology configuration every test starts from: statistics counted for every tuple (Storm samples 5% by default, which
     * would make counts approximate) and one worker.
     */
    public static Config baseConf() {
        Config conf = new Config();
        conf.put(Config.TOPOLOGY_STATS_SAMPLE_RATE, 1.0d);
        conf.setNumWorkers(1);
        return conf;
    }

    /** True when a topology of that name is listed by the cluster (in any status). */
    public static boolean isListed(ILocalCluster cluster, String name) {
        try {
            for (TopologySummary summary : cluster.getTopologySummaries()) {
                if (summary.get_name().equals(name)) {
                    return true;
                }
            }
            return false;
        } catch (Exception e) {
            throw new AssertionError("getTopologySummaries failed", e);
        }
    }

    /** Kills at once (wait_secs 0) if alive and waits until the cluster no longer lists the topology. Never throws for a dead one. */
    public static void killAndAwaitGone(ILocalCluster cluster, String name) {
        kill(cluster, name, 0);
        Await.until("topology " + name + " to be removed", () -> !isListed(cluster, name), Duration.ofSeconds(60));
    }

    /** Kills with the given wait; returns false when the cluster did not know the topology. */
    public static boolean kill(ILocalCluster cluster, String name, int waitSecs) {
        KillOptions options = new KillOptions();
        options.set_wait_secs(waitSecs);
        try {
            cluster.killTopologyWithOpts(name, options);
            return true;
        } catch (NotAliveException e) {
            return false;
        } catch (Exception e) {
            throw new AssertionError("killTopologyWithOpts(" + name + ") failed", e);
        }
    }
}
