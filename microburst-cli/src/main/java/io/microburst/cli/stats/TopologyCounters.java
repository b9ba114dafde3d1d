package io.microburst.cli.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.BoltStats;
import org.apache.storm.generated.ExecutorSpecificStats;
import org.apache.storm.generated.ExecutorStats;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.TopologyInfo;

/**
 * Reads per-component counters from a {@link TopologyInfo}: the {@code ":all-time"} window of each executor's
 * emitted and executed counts, summed per component. Components and streams whose names start with {@code "__"}
 * (Storm's system components and streams: acker, metrics, ticks) are left out. Stateless.
 */
public final class TopologyCounters {
    /** The stats window that never rolls over. */
    public static final String ALL_TIME = ":all-time";
    private static final String SYSTEM_PREFIX = "__";

    private TopologyCounters() {
    }

    /** Returns counters per component id: spouts first, then bolts, each in id order. */
    public static Map<String, ComponentCounters> read(TopologyInfo info) {
        return read(info, List.of());
    }

    /**
     * Returns counters per component id: those named in {@code order} first, in that order, then the others as
     * {@link #read(TopologyInfo)} orders them.
     */
    public static Map<String, ComponentCounters> read(TopologyInfo info, List<String> order) {
        Map<String, ComponentCounters> byId = new LinkedHashMap<>();
        if (info.get_executors() != null) {
            for (ExecutorSummary executor : info.get_executors()) {
                String id = executor.get_component_id();
                if (id == null || id.startsWith(SYSTEM_PREFIX)) {
                    continue;
                }
                byId.merge(id, countersOf(id, executor.get_stats()), TopologyCounters::add);
            }
        }
        List<ComponentCounters> sorted = new ArrayList<>(byId.values());
        sorted.sort(Comparator.comparingInt((ComponentCounters c) -> rank(order, c.componentId()))
                .thenComparing(ComponentCounters::kind).thenComparing(ComponentCounters::componentId));
        Map<String, ComponentCounters> ordered = new LinkedHashMap<>();
        sorted.forEach(counters -> ordered.put(counters.componentId(), counters));
        return ordered;
    }

    private static int rank(List<String> order, String componentId) {
        int index = order.indexOf(componentId);
        return index < 0 ? order.size() : index;
    }

    private static ComponentCounters countersOf(String id, ExecutorStats stats) {
        if (stats == null) {
            // The executor has not reported yet: count it, with nothing done.
            return new ComponentCounters(id, ComponentKind.BOLT, 1, 0, 0);
        }
        ExecutorSpecificStats specific = stats.get_specific();
        boolean spout = specific != null && specific.is_set_spout();
        long executed = spout || specific == null || !specific.is_set_bolt() ? 0 : executedOf(specific.get_bolt());
        return new ComponentCounters(id, spout ? ComponentKind.SPOUT : ComponentKind.BOLT, 1,
                sumUserStreams(stats.get_emitted()), executed);
    }

    private static long sumUserStreams(Map<String, Map<String, Long>> byWindow) {
        Map<String, Long> byStream = byWindow == null ? null : byWindow.get(ALL_TIME);
        long sum = 0;
        if (byStream != null) {
            for (Map.Entry<String, Long> entry : byStream.entrySet()) {
                if (!entry.getKey().startsWith(SYSTEM_PREFIX) && entry.getValue() != null) {
                    sum += entry.getValue();
                }
            }
        }
        return sum;
    }

    private static long executedOf(BoltStats bolt) {
        Map<GlobalStreamId, Long> byStream = bolt.get_executed() == null ? null : bolt.get_executed().get(ALL_TIME);
        long sum = 0;
        if (byStream != null) {
            for (Map.Entry<GlobalStreamId, Long> entry : byStream.entrySet()) {
                if (!entry.getKey().get_streamId().startsWith(SYSTEM_PREFIX) && entry.getValue() != null) {
                    sum += entry.getValue();
                }
            }
        }
        return sum;
    }

    private static ComponentCounters add(ComponentCounters a, ComponentCounters b) {
        // An executor that has reported tells the kind; one that has not defaults to BOLT and must not override it.
        ComponentKind kind = a.kind() == ComponentKind.SPOUT || b.kind() == ComponentKind.SPOUT
                ? ComponentKind.SPOUT : ComponentKind.BOLT;
        return new ComponentCounters(a.componentId(), kind, a.executors() + b.executors(),
                a.emitted() + b.emitted(), a.executed() + b.executed());
    }
}
