package io.microburst.cli.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.BoltStats;
import org.apache.storm.generated.ExecutorInfo;
import org.apache.storm.generated.ExecutorSpecificStats;
import org.apache.storm.generated.ExecutorStats;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.SpoutStats;
import org.apache.storm.generated.TopologyInfo;
import org.junit.jupiter.api.Test;

class TopologyCountersTest {
    private final List<ExecutorSummary> executors = new ArrayList<>();

    @Test
    void sumsAllTimeCountersPerComponentAndSkipsSystemStreamsAndComponents() {
        spout("words", Map.of("default", 100L, "__ack_init", 99L), Map.of("default", 7L));
        bolt("split", Map.of("default", 300L), Map.of(new GlobalStreamId("words", "default"), 60L,
                new GlobalStreamId("__system", "__tick"), 5L));
        bolt("split", Map.of("default", 200L), Map.of(new GlobalStreamId("words", "default"), 40L));
        bolt("__acker", Map.of("__ack_ack", 1000L), Map.of(new GlobalStreamId("split", "__ack_ack"), 1000L));

        Map<String, ComponentCounters> counters = TopologyCounters.read(info());

        assertEquals(List.of("words", "split"), List.copyOf(counters.keySet()));
        assertEquals(new ComponentCounters("words", ComponentKind.SPOUT, 1, 100, 0), counters.get("words"));
        assertEquals(new ComponentCounters("split", ComponentKind.BOLT, 2, 500, 100), counters.get("split"));
    }

    @Test
    void defaultOrderIsSpoutsThenBoltsByIdAndAnExplicitOrderWins() {
        bolt("split", Map.of(), Map.of());
        bolt("count", Map.of(), Map.of());
        spout("sentences", Map.of(), Map.of());

        assertEquals(List.of("sentences", "count", "split"), List.copyOf(TopologyCounters.read(info()).keySet()));
        assertEquals(List.of("sentences", "split", "count"),
                List.copyOf(TopologyCounters.read(info(), List.of("sentences", "split", "count")).keySet()));
    }

    @Test
    void executorsWithoutStatsCountAsIdleAndDoNotHideASpout() {
        spout("words", Map.of("default", 5L), Map.of());
        ExecutorSummary silent = new ExecutorSummary(new ExecutorInfo(9, 9), "words", "localhost", 0, 0);
        executors.add(silent);

        ComponentCounters words = TopologyCounters.read(info()).get("words");

        assertEquals(new ComponentCounters("words", ComponentKind.SPOUT, 2, 5, 0), words);
    }

    @Test
    void topologyWithoutExecutorsHasNoCounters() {
        TopologyInfo empty = new TopologyInfo();
        assertEquals(Map.of(), TopologyCounters.read(empty));
    }

    private void spout(String id, Map<String, Long> emitted, Map<String, Long> acked) {
        SpoutStats spout = new SpoutStats(allTime(acked), allTime(Map.of()), new HashMap<>());
        add(id, new ExecutorStats(allTime(emitted), allTime(emitted), ExecutorSpecificStats.spout(spout), 1.0));
    }

    private void bolt(String id, Map<String, Long> emitted, Map<GlobalStreamId, Long> executed) {
        BoltStats bolt = new BoltStats(new HashMap<>(), new HashMap<>(), new HashMap<>(), allTime(executed),
                new HashMap<>());
        add(id, new ExecutorStats(allTime(emitted), allTime(emitted), ExecutorSpecificStats.bolt(bolt), 1.0));
    }

    private void add(String id, ExecutorStats stats) {
        int task = executors.size() + 1;
        ExecutorSummary summary = new ExecutorSummary(new ExecutorInfo(task, task), id, "localhost", 0, 1);
        summary.set_stats(stats);
        executors.add(summary);
    }

    private static <K> Map<String, Map<K, Long>> allTime(Map<K, Long> byStream) {
        Map<String, Map<K, Long>> windows = new HashMap<>();
        windows.put(TopologyCounters.ALL_TIME, new HashMap<>(byStream));
        // Rolling windows must be ignored: give them values that would show up if summed.
        Map<K, Long> recent = new HashMap<>();
        byStream.keySet().forEach(key -> recent.put(key, 1_000_000L));
        windows.put("600", recent);
        return windows;
    }

    private TopologyInfo info() {
        return new TopologyInfo("id-1", "topo", 10, executors, "ACTIVE", new HashMap<>());
    }
}
