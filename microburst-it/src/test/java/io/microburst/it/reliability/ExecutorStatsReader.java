package io.microburst.it.reliability;

import java.util.Map;
import org.apache.storm.generated.BoltStats;
import org.apache.storm.generated.ExecutorStats;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.SpoutStats;
import org.apache.storm.generated.TopologyInfo;

/** Sums and maxima over the executor stats of one component in a {@link TopologyInfo}, in the all-time window. */
final class ExecutorStatsReader {
    private static final String ALL_TIME = ":all-time";

    private final TopologyInfo info;

    ExecutorStatsReader(TopologyInfo info) {
        this.info = info;
    }

    long spoutAcked(String component) {
        long sum = 0;
        for (ExecutorSummary executor : info.get_executors()) {
            SpoutStats spout = spoutStats(executor, component);
            if (spout != null && spout.get_acked() != null) {
                sum += sumOf(spout.get_acked().get(ALL_TIME));
            }
        }
        return sum;
    }

    double spoutCompleteMsAvg(String component) {
        double max = 0;
        for (ExecutorSummary executor : info.get_executors()) {
            SpoutStats spout = spoutStats(executor, component);
            if (spout != null && spout.get_complete_ms_avg() != null) {
                max = Math.max(max, maxOf(spout.get_complete_ms_avg().get(ALL_TIME)));
            }
        }
        return max;
    }

    double boltExecuteMsAvg(String component) {
        double max = 0;
        for (ExecutorSummary executor : info.get_executors()) {
            BoltStats bolt = boltStats(executor, component);
            if (bolt != null && bolt.get_execute_ms_avg() != null) {
                max = Math.max(max, maxOf(bolt.get_execute_ms_avg().get(ALL_TIME)));
            }
        }
        return max;
    }

    double boltProcessMsAvg(String component) {
        double max = 0;
        for (ExecutorSummary executor : info.get_executors()) {
            BoltStats bolt = boltStats(executor, component);
            if (bolt != null && bolt.get_process_ms_avg() != null) {
                max = Math.max(max, maxOf(bolt.get_process_ms_avg().get(ALL_TIME)));
            }
        }
        return max;
    }

    long boltAcked(String component) {
        long sum = 0;
        for (ExecutorSummary executor : info.get_executors()) {
            BoltStats bolt = boltStats(executor, component);
            if (bolt != null && bolt.get_acked() != null) {
                sum += sumOf(bolt.get_acked().get(ALL_TIME));
            }
        }
        return sum;
    }

    private static SpoutStats spoutStats(ExecutorSummary executor, String component) {
        ExecutorStats stats = executor.get_stats();
        if (!component.equals(executor.get_component_id()) || stats == null || stats.get_specific() == null
                || !stats.get_specific().is_set_spout()) {
            return null;
        }
        return stats.get_specific().get_spout();
    }

    private static BoltStats boltStats(ExecutorSummary executor, String component) {
        ExecutorStats stats = executor.get_stats();
        if (!component.equals(executor.get_component_id()) || stats == null || stats.get_specific() == null
                || !stats.get_specific().is_set_bolt()) {
            return null;
        }
        return stats.get_specific().get_bolt();
    }

    private static long sumOf(Map<?, Long> byStream) {
        return byStream == null ? 0 : byStream.values().stream().mapToLong(Long::longValue).sum();
    }

    private static double maxOf(Map<?, Double> byStream) {
        return byStream == null ? 0 : byStream.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }
}
