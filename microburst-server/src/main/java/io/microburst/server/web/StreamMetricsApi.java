package io.microburst.server.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.storm.generated.BoltStats;
import org.apache.storm.generated.ExecutorStats;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.SpoutStats;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.Utils;

/**
 * Storm's UI REST {@code topology/ID/metrics?window=&sys=}: per spout and bolt, each figure per stream (output
 * streams for emitted, transferred and a spout's acked, failed and complete latency; input streams, with their
 * component, for a bolt's acked, failed, executed and latencies), summed over the component's executors, latencies
 * weighted by their counts. This is the document's shape (Storm 2.8.3's UI server answers the topology page's here
 * instead). And {@code topology/ID/lag}: Storm computes it for Kafka spouts only, from the brokers;
 * here it is empty. Stateless.
 */
final class StreamMetricsApi {
    private final Nimbus.Iface nimbus;

    StreamMetricsApi(Nimbus.Iface nimbus) {
        this.nimbus = nimbus;
    }

    Map<String, Object> lag(String id) throws TException {
        nimbus.getTopologySummary(id);
        return Map.of();
    }

    Map<String, Object> metrics(String id, String window, String sys) throws TException {
        String win = StormJson.window(window);
        boolean withSys = StormJson.sys(sys);
        TopologyInfo info = nimbus.getTopologyInfo(id);
        Map<String, List<ExecutorSummary>> spouts = new TreeMap<>();
        Map<String, List<ExecutorSummary>> bolts = new TreeMap<>();
        for (ExecutorSummary e : info.get_executors()) {
            ExecutorStats stats = e.get_stats();
            if (stats == null || stats.get_specific() == null || (!withSys && Utils.isSystemId(e.get_component_id()))) {
                continue;
            }
            (stats.get_specific().is_set_spout() ? spouts : bolts)
                .computeIfAbsent(e.get_component_id(), c -> new ArrayList<>()).add(e);
        }
        List<Object> spoutRows = new ArrayList<>();
        spouts.forEach((component, executors) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", component);
            row.put("emitted", byStream(executors, win, withSys, s -> s.get_emitted()));
            row.put("transferred", byStream(executors, win, withSys, s -> s.get_transferred()));
            row.put("acked", byStream(executors, win, withSys, s -> spout(s).get_acked()));
            row.put("failed", byStream(executors, win, withSys, s -> spout(s).get_failed()));
            row.put("complete_ms_avg", averages(streamRows(executors, win, withSys, s -> spout(s).get_acked()),
                streamRows(executors, win, withSys, s -> weighted(spout(s).get_complete_ms_avg(), spout(s).get_acked()))));
            spoutRows.add(row);
        });
        List<Object> boltRows = new ArrayList<>();
        bolts.forEach((component, executors) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", component);
            row.put("emitted", byStream(executors, win, withSys, s -> s.get_emitted()));
            row.put("transferred", byStream(executors, win, withSys, s -> s.get_transferred()));
            row.put("acked", byInput(executors, win, withSys, b -> b.get_acked()));
            row.put("failed", byInput(executors, win, withSys, b -> b.get_failed()));
            row.put("process_ms_avg", inputAverages(executors, win, withSys, BoltStats::get_acked,
                BoltStats::get_process_ms_avg));
            row.put("executed", byInput(executors, win, withSys, b -> b.get_executed()));
            row.put("executed_ms_avg", inputAverages(executors, win, withSys, BoltStats::get_executed,
                BoltStats::get_execute_ms_avg));
            boltRows.add(row);
        });
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("window", win);
        json.put("windowHint", ComponentTotals.WINDOWS.get(win));
        json.put("spouts", spoutRows);
        json.put("bolts", boltRows);
        return json;
    }

    private static SpoutStats spout(ExecutorStats stats) {
        return stats.get_specific().get_spout();
    }

    /** Per window and stream, the average times its count: summed, then divided by the summed count. */
    private static Map<String, Map<String, Double>> weighted(Map<String, Map<String, Double>> avg,
                                                             Map<String, Map<String, Long>> counts) {
        Map<String, Map<String, Double>> out = new TreeMap<>();
        if (avg != null && counts != null) {
            avg.forEach((w, byStream) -> byStream.forEach((s, a) -> out.computeIfAbsent(w, k -> new TreeMap<>())
                .put(s, a * counts.getOrDefault(w, Map.of()).getOrDefault(s, 0L))));
        }
        return out;
    }

    private static <N extends Number> Map<String, Double> streamRows(
        List<ExecutorSummary> executors, String window, boolean sys,
        Function<ExecutorStats, Map<String, Map<String, N>>> figure) {
        Map<String, Double> sums = new TreeMap<>();
        for (ExecutorSummary e : executors) {
            Map<String, Map<String, N>> byWindow = figure.apply(e.get_stats());
            Map<String, N> byStream = byWindow == null ? null : byWindow.get(window);
            if (byStream != null) {
                byStream.forEach((s, n) -> {
                    if (sys || !Utils.isSystemId(s)) {
                        sums.merge(s, n.doubleValue(), Double::sum);
                    }
                });
            }
        }
        return sums;
    }

    private static List<Object> byStream(List<ExecutorSummary> executors, String window, boolean sys,
                                         Function<ExecutorStats, Map<String, Map<String, Long>>> figure) {
        List<Object> rows = new ArrayList<>();
        streamRows(executors, window, sys, figure).forEach((s, n) -> rows.add(row(null, s, n.longValue())));
        return rows;
    }

    private static List<Object> averages(Map<String, Double> counts, Map<String, Double> weightedSums) {
        List<Object> rows = new ArrayList<>();
        counts.forEach((s, n) -> rows.add(row(null, s, StormJson.decimal(n == 0 ? 0 : weightedSums.getOrDefault(s, 0.0) / n))));
        return rows;
    }

    private static Map<GlobalStreamId, double[]> inputSums(List<ExecutorSummary> executors, String window, boolean sys,
                                                           Function<BoltStats, Map<String, Map<GlobalStreamId, Long>>> counts,
                                                           Function<BoltStats, Map<String, Map<GlobalStreamId, Double>>> avg) {
        Map<GlobalStreamId, double[]> sums = new TreeMap<>();
        for (ExecutorSummary e : executors) {
            BoltStats b = e.get_stats().get_specific().get_bolt();
            Map<GlobalStreamId, Long> n = counts.apply(b) == null ? null : counts.apply(b).get(window);
            Map<GlobalStreamId, Double> a = avg == null || avg.apply(b) == null ? null : avg.apply(b).get(window);
            if (n != null) {
                n.forEach((in, count) -> {
                    if (sys || !Utils.isSystemId(in.get_streamId())) {
                        double[] s = sums.computeIfAbsent(in, k -> new double[2]);
                        s[0] += count;
                        s[1] += a == null ? 0 : count * a.getOrDefault(in, 0.0);
                    }
                });
            }
        }
        return sums;
    }

    private static List<Object> byInput(List<ExecutorSummary> executors, String window, boolean sys,
                                        Function<BoltStats, Map<String, Map<GlobalStreamId, Long>>> figure) {
        List<Object> rows = new ArrayList<>();
        inputSums(executors, window, sys, figure, null).forEach((in, s) -> rows.add(row(in.get_componentId(),
            in.get_streamId(), (long) s[0])));
        return rows;
    }

    private static List<Object> inputAverages(List<ExecutorSummary> executors, String window, boolean sys,
                                              Function<BoltStats, Map<String, Map<GlobalStreamId, Long>>> counts,
                                              Function<BoltStats, Map<String, Map<GlobalStreamId, Double>>> avg) {
        List<Object> rows = new ArrayList<>();
        inputSums(executors, window, sys, counts, avg).forEach((in, s) -> rows.add(row(in.get_componentId(),
            in.get_streamId(), StormJson.decimal(s[0] == 0 ? 0 : s[1] / s[0]))));
        return rows;
    }

    private static Map<String, Object> row(String component, String stream, Object value) {
        Map<String, Object> row = new LinkedHashMap<>();
        if (component != null) {
            row.put("component_id", component);
        }
        row.put("stream_id", stream);
        row.put("value", value);
        return row;
    }
}
