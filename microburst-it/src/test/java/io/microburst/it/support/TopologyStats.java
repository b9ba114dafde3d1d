package io.microburst.it.support;

import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.storm.generated.ExecutorSpecificStats;
import org.apache.storm.generated.ExecutorStats;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.TopologyInfo;

/** Reads the all-time counters of one component out of a {@link TopologyInfo}, summed over its executors. */
public final class TopologyStats {
    /** The window Storm uses for totals since start. */
    public static final String ALL_TIME = ":all-time";

    private TopologyStats() {
    }

    public static long emitted(TopologyInfo info, String component, String stream) {
        return sum(info, component, stats -> valueOf(stats.get_emitted(), stream));
    }

    public static long transferred(TopologyInfo info, String component, String stream) {
        return sum(info, component, stats -> valueOf(stats.get_transferred(), stream));
    }

    /** Tuples executed by a bolt, over all its input streams. */
    public static long executed(TopologyInfo info, String component) {
        return sum(info, component, stats -> boltTotal(stats, Kind.EXECUTED));
    }

    /** Tuples acked: by a bolt over all its inputs, or by a spout (completed trees) over all its streams. */
    public static long acked(TopologyInfo info, String component) {
        return sum(info, component, stats -> specificTotal(stats, Kind.ACKED));
    }

    public static long failed(TopologyInfo info, String component) {
        return sum(info, component, stats -> specificTotal(stats, Kind.FAILED));
    }

    /** Every task id the executors of the component cover. */
    public static SortedSet<Integer> taskIds(TopologyInfo info, String component) {
        SortedSet<Integer> ids = new TreeSet<>();
        for (ExecutorSummary executor : info.get_executors()) {
            if (executor.get_component_id().equals(component)) {
                for (int task = executor.get_executor_info().get_task_start(); task <= executor.get_executor_info().get_task_end(); task++) {
                    ids.add(task);
                }
            }
        }
        return ids;
    }

    public static int executorCount(TopologyInfo info, String component) {
        int count = 0;
        for (ExecutorSummary executor : info.get_executors()) {
            if (executor.get_component_id().equals(component)) {
                count++;
            }
        }
        return count;
    }

    private enum Kind { EXECUTED, ACKED, FAILED }

    private static long sum(TopologyInfo info, String component, Function<ExecutorStats, Long> counter) {
        long total = 0;
        for (ExecutorSummary executor : info.get_executors()) {
            if (executor.get_component_id().equals(component) && executor.get_stats() != null) {
                total += counter.apply(executor.get_stats());
            }
        }
        return total;
    }

    private static long valueOf(Map<String, Map<String, Long>> byWindow, String stream) {
        if (byWindow == null || byWindow.get(ALL_TIME) == null) {
            return 0;
        }
        return byWindow.get(ALL_TIME).getOrDefault(stream, 0L);
    }

    private static long boltTotal(ExecutorStats stats, Kind kind) {
        ExecutorSpecificStats specific = stats.get_specific();
        if (specific == null || !specific.is_set_bolt()) {
            return 0;
        }
        Map<String, ? extends Map<?, Long>> byWindow = switch (kind) {
            case EXECUTED -> specific.get_bolt().get_executed();
            case ACKED -> specific.get_bolt().get_acked();
            case FAILED -> specific.get_bolt().get_failed();
        };
        return total(byWindow);
    }

    private static long specificTotal(ExecutorStats stats, Kind kind) {
        ExecutorSpecificStats specific = stats.get_specific();
        if (specific == null) {
            return 0;
        }
        if (specific.is_set_bolt()) {
            return boltTotal(stats, kind);
        }
        Map<String, ? extends Map<?, Long>> byWindow = kind == Kind.FAILED ? specific.get_spout().get_failed()
            : specific.get_spout().get_acked();
        return total(byWindow);
    }

    private static long total(Map<String, ? extends Map<?, Long>> byWindow) {
        if (byWindow == null || byWindow.get(ALL_TIME) == null) {
            return 0;
        }
        long total = 0;
        for (Long value : byWindow.get(ALL_TIME).values()) {
            total += value;
        }
        return total;
    }
}
