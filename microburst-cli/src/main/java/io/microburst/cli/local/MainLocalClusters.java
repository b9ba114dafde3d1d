package io.microburst.cli.local;

import io.microburst.localcluster.Engines;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.TopologySummary;

/**
 * The {@code new LocalCluster()}s a topology's main made itself (microburst-localcluster's, which register with its
 * {@link Engines}): a main written for {@code storm local} submits to one of those rather than through
 * {@code StormSubmitter}, and either closes it before returning (its topologies ran and stopped) or leaves it open
 * (they keep running, as they would under {@code storm local}). Only sees the clusters made in the loader this class
 * was loaded by, which is the topology's.
 *
 * <p>Confined to the run's thread.
 */
final class MainLocalClusters {
    /** Whether microburst-localcluster is on the class path (a test class path may hold storm-server's instead). */
    private static final boolean PRESENT = present();

    private final int before;

    private MainLocalClusters(int before) {
        this.before = before;
    }

    /** Starts watching: clusters made from now on count as the main's. */
    static MainLocalClusters watch() {
        return new MainLocalClusters(PRESENT ? Engines.registered() : 0);
    }

    /** Whether the main made any LocalCluster since {@link #watch()}. */
    boolean madeAny() {
        return PRESENT && Engines.registered() > before;
    }

    /** The clusters still open, each with the names of the topologies it runs (possibly none). */
    Map<ILocalCluster, Set<String>> open() {
        Map<ILocalCluster, Set<String>> open = new LinkedHashMap<>();
        if (!PRESENT) {
            return open;
        }
        for (ILocalCluster cluster : Engines.open()) {
            Set<String> names = new LinkedHashSet<>();
            try {
                for (TopologySummary summary : cluster.getTopologySummaries()) {
                    names.add(summary.get_name());
                }
            } catch (Exception e) {
                continue; // closed meanwhile
            }
            open.put(cluster, names);
        }
        return open;
    }

    private static boolean present() {
        try {
            Class.forName("io.microburst.localcluster.Engines", false, MainLocalClusters.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
