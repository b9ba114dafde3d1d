package io.microburst.it.soak;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologySummary;

/**
 * Whether the active topologies do work: a status says ACTIVE even when a topology's spouts are stuck (a Trident
 * coordinator waiting for a ZooKeeper that is not there), and a spout that emits says nothing of whether its trees
 * complete (a Trident batch that fails at every try is emitted again and again), so each must have more trees acked
 * by its spouts, by Storm's executor statistics, within a bound. Used by the test's thread.
 */
final class SoakProgress {
    private SoakProgress() {
    }

    /** Null once every named topology's spouts acked more than now, else those that did not within {@code seconds}. */
    static String awaitAcking(SoakClient client, List<String> names, long seconds) throws Exception {
        Map<String, Long> before = acked(client, names);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        Map<String, Long> stalled = new TreeMap<>(before);
        while (!stalled.isEmpty()) {
            if (System.nanoTime() > deadline) {
                return "no tree acked in " + seconds + " s by the spouts of " + stalled.keySet() + " (all-time acked "
                    + stalled + ")";
            }
            Thread.sleep(500);
            Map<String, Long> now = acked(client, List.copyOf(stalled.keySet()));
            now.forEach((name, count) -> {
                if (count > before.get(name)) {
                    stalled.remove(name);
                }
            });
        }
        return null;
    }

    private static Map<String, Long> acked(SoakClient client, List<String> names) throws Exception {
        Map<String, TopologySummary> live = client.topologies();
        Map<String, Long> out = new TreeMap<>();
        for (String name : names) {
            TopologyInfo info = client.nimbus(n -> n.getTopologyInfo(live.get(name).get_id()));
            long sum = 0;
            for (ExecutorSummary e : info.get_executors()) {
                if (e.get_stats() == null || e.get_stats().get_specific() == null
                    || !e.get_stats().get_specific().is_set_spout()) {
                    continue;
                }
                Map<String, Long> allTime = e.get_stats().get_specific().get_spout().get_acked().get(":all-time");
                if (allTime != null) {
                    sum += allTime.values().stream().mapToLong(Long::longValue).sum();
                }
            }
            out.put(name, sum);
        }
        return out;
    }
}
