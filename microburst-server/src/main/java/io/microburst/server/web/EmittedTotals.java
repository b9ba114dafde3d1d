package io.microburst.server.web;

import io.microburst.MicroburstCluster;
import io.microburst.metrics.TaskStats;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.utils.Utils;

/**
 * Tuples each topology emitted since it started, counted as its page's {@code topologyStats} counts them in the
 * {@code :all-time} window (every task of its own components, user streams only), for the {@code emitted} field of
 * {@code topology/summary} that the cluster page turns into a rate. Read from the tasks' counters at most once per
 * {@value #SHARED_MILLIS} ms for every topology at once ({@link SharedSnapshot}), so that browsers on the cluster page
 * cost one walk of the counters a second, not a topology page per topology each.
 *
 * <p>Threading: any request thread.
 */
final class EmittedTotals {
    static final long SHARED_MILLIS = 1000;
    private final SharedSnapshot<Map<String, Long>> byId;

    EmittedTotals(MicroburstCluster cluster) {
        this(cluster, System::nanoTime);
    }

    /** @param nanoClock the time, as {@link System#nanoTime} */
    EmittedTotals(MicroburstCluster cluster, LongSupplier nanoClock) {
        this.byId = new SharedSnapshot<>(() -> count(cluster), TimeUnit.MILLISECONDS.toNanos(SHARED_MILLIS), nanoClock);
    }

    /** Emitted tuples by topology id, as counted within the last {@value #SHARED_MILLIS} ms. */
    Map<String, Long> byId() throws Exception {
        return byId.get();
    }

    private static Map<String, Long> count(MicroburstCluster cluster) {
        Map<String, Long> result = new HashMap<>();
        for (TopologySummary t : cluster.getTopologySummaries()) {
            try {
                result.put(t.get_id(), emitted(cluster, t.get_name()));
            } catch (NotAliveException gone) {
                // killed since it was listed: the next answer no longer lists it
            }
        }
        return Map.copyOf(result);
    }

    private static long emitted(MicroburstCluster cluster, String name) throws NotAliveException {
        long sum = 0;
        for (TaskStats task : cluster.getTaskStats(name)) {
            if (Utils.isSystemId(task.componentId())) {
                continue;
            }
            for (int s = 0; s < task.outStreamCount(); s++) {
                if (!Utils.isSystemId(task.outStream(s))) {
                    sum += task.emitted(s);
                }
            }
        }
        return sum;
    }
}
