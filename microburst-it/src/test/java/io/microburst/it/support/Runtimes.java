package io.microburst.it.support;

import io.microburst.MicroburstCluster;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.LocalCluster;

/**
 * The runtimes a test can run on, each behind the same {@link ILocalCluster} contract: Apache Storm's own LocalCluster (the reference)
 * and Microburst. The behaviour tests pick theirs from the system property {@value #PROPERTY}, so the same test can be checked
 * against Storm first and then run on Microburst.
 */
public final class Runtimes {
    public static final String PROPERTY = "microburst.it.runtime";
    public static final String STORM = "storm";
    public static final String MICROBURST = "microburst";

    private Runtimes() {
    }

    /** The runtime chosen for this test run; Microburst unless {@value #PROPERTY} says otherwise. */
    public static String selected() {
        String runtime = System.getProperty(PROPERTY, MICROBURST).trim().toLowerCase(Locale.ROOT);
        if (!runtime.equals(STORM) && !runtime.equals(MICROBURST)) {
            throw new IllegalArgumentException(PROPERTY + " must be " + STORM + " or " + MICROBURST + ", not " + runtime);
        }
        return runtime;
    }

    public static boolean isStorm(String runtime) {
        return STORM.equals(runtime);
    }

    public static boolean isMicroburst(String runtime) {
        return MICROBURST.equals(runtime);
    }

    public static ILocalCluster start(String runtime) throws Exception {
        return start(runtime, Map.of());
    }

    /** Starts a cluster of the given runtime with extra cluster-wide configuration. The caller closes it. */
    public static ILocalCluster start(String runtime, Map<String, Object> clusterConf) throws Exception {
        switch (runtime) {
            case STORM:
                return startStorm(clusterConf);
            case MICROBURST:
                return clusterConf.isEmpty() ? new MicroburstCluster() : new MicroburstCluster(new HashMap<>(clusterConf));
            default:
                throw new IllegalArgumentException("unknown runtime " + runtime);
        }
    }

    private static ILocalCluster startStorm(Map<String, Object> clusterConf) throws Exception {
        StormHalts.guard();
        // The daemon settings `new LocalCluster()` uses, so tests see Storm as users do, with one exception below.
        LocalCluster.Builder builder = new LocalCluster.Builder().withDaemonConf(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, true)
            // Storm's workers publish executor stats every 60 s by default; tests read them within seconds.
            .withDaemonConf(Config.EXECUTOR_METRICS_FREQUENCY_SECS, 1);
        if (!clusterConf.isEmpty()) {
            builder.withDaemonConf(new HashMap<>(clusterConf));
        }
        return builder.build();
    }
}
