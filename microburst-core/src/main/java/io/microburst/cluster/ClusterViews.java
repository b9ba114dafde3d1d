package io.microburst.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.microburst.metrics.TaskStats;
import io.microburst.runtime.TopologyRuntime;
import io.microburst.runtime.TopologyRuntime.ExecutorView;
import org.apache.storm.generated.BoltStats;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.NimbusSummary;
import org.apache.storm.generated.SupervisorSummary;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.ExecutorInfo;
import org.apache.storm.generated.ExecutorSpecificStats;
import org.apache.storm.generated.ExecutorStats;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.NumErrorsChoice;
import org.apache.storm.generated.SpoutStats;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologySummary;

/**
 * Builds Storm's thrift views (cluster, topology and executor summaries) of a running topology from the counters its tasks keep. Counts are exact (nothing is
 * sampled); latencies are means over sampled tuples. Storm's time windows (10 min, 3 h, 1 day) report the same values
 * as all-time: the counters are not bucketed by time.
 */
public final class ClusterViews {
    static final String VERSION = "microburst-" + String.valueOf(ClusterViews.class.getPackage().getImplementationVersion());
    static final String ALL_TIME = ":all-time";
    private static final String[] WINDOWS = {ALL_TIME, "600", "10800", "86400"};

    private ClusterViews() {
    }

    public static TopologySummary summary(TopologyRuntime runtime) {
        TopologySummary s = new TopologySummary(runtime.plan().stormId(), runtime.plan().name(),
            runtime.plan().taskCount(), runtime.componentExecutorCount(), 1, runtime.uptimeSecs(), runtime.status());
        s.set_owner(System.getProperty("user.name", ""));
        return s;
    }

    public static TopologyInfo info(TopologyRuntime runtime, NumErrorsChoice errorChoice) {
        List<ExecutorSummary> executors = new ArrayList<>();
        for (ExecutorView view : runtime.executorViews()) {
            ExecutorSummary summary = new ExecutorSummary(new ExecutorInfo(view.firstTask(), view.lastTask()),
                view.componentId(), TopologyRuntime.HOST, TopologyRuntime.WORKER_PORT, runtime.uptimeSecs());
            summary.set_stats(stats(view));
            executors.add(summary);
        }
        Map<String, List<ErrorInfo>> errors = runtime.errors().snapshot();
        if (errorChoice == NumErrorsChoice.NONE) {
            errors = new HashMap<>();
        } else if (errorChoice == NumErrorsChoice.ONE) {
            Map<String, List<ErrorInfo>> last = new HashMap<>();
            errors.forEach((k, v) -> last.put(k, v.isEmpty() ? v : new ArrayList<>(v.subList(v.size() - 1, v.size()))));
            errors = last;
        }
        TopologyInfo info = new TopologyInfo(runtime.plan().stormId(), runtime.plan().name(), runtime.uptimeSecs(),
            executors, runtime.status(), errors);
        info.set_owner(System.getProperty("user.name", ""));
        return info;
    }

    public static ClusterSummary clusterSummary(List<TopologySummary> topologies, int uptimeSecs, int executors) {
        SupervisorSummary supervisor = new SupervisorSummary(TopologyRuntime.HOST, uptimeSecs, 1,
            topologies.isEmpty() ? 0 : 1, "microburst-" + ProcessHandle.current().pid());
        NimbusSummary nimbus = new NimbusSummary(TopologyRuntime.HOST, 0, uptimeSecs, true, VERSION);
        ClusterSummary summary = new ClusterSummary(List.of(supervisor), topologies, List.of(nimbus));
        return summary;
    }

    private static ExecutorStats stats(ExecutorView view) {
        Map<String, Long> emitted = new HashMap<>();
        Map<String, Long> transferred = new HashMap<>();
        ExecutorSpecificStats specific;
        if (view.spout()) {
            Map<String, Long> acked = new HashMap<>();
            Map<String, Long> failed = new HashMap<>();
            Map<String, double[]> complete = new HashMap<>();
            for (TaskStats t : view.tasks()) {
                for (int s = 0; s < t.outStreamCount(); s++) {
                    String stream = t.outStream(s);
                    emitted.merge(stream, t.emitted(s), Long::sum);
                    transferred.merge(stream, t.transferred(s), Long::sum);
                    acked.merge(stream, t.spoutAckedCount(s), Long::sum);
                    failed.merge(stream, t.spoutFailedCount(s), Long::sum);
                    weigh(complete, stream, t.completeMsAvg(s), t.spoutAckedCount(s));
                }
            }
            specific = ExecutorSpecificStats.spout(new SpoutStats(windowed(acked), windowed(failed),
                windowed(means(complete))));
        } else {
            Map<GlobalStreamId, Long> acked = new HashMap<>();
            Map<GlobalStreamId, Long> failed = new HashMap<>();
            Map<GlobalStreamId, Long> executed = new HashMap<>();
            Map<GlobalStreamId, double[]> process = new HashMap<>();
            Map<GlobalStreamId, double[]> execute = new HashMap<>();
            for (TaskStats t : view.tasks()) {
                for (int s = 0; s < t.outStreamCount(); s++) {
                    emitted.merge(t.outStream(s), t.emitted(s), Long::sum);
                    transferred.merge(t.outStream(s), t.transferred(s), Long::sum);
                }
                for (int i = 0; i < t.inputCount(); i++) {
                    GlobalStreamId input = new GlobalStreamId(t.inputComponent(i), t.inputStream(i));
                    acked.merge(input, t.acked(i), Long::sum);
                    failed.merge(input, t.failed(i), Long::sum);
                    executed.merge(input, t.executed(i), Long::sum);
                    weigh(process, input, t.processMsAvg(i), t.acked(i));
                    weigh(execute, input, t.executeMsAvg(i), t.executed(i));
                }
            }
            specific = ExecutorSpecificStats.bolt(new BoltStats(windowed(acked), windowed(failed),
                windowed(means(process)), windowed(executed), windowed(means(execute))));
        }
        return new ExecutorStats(windowed(emitted), windowed(transferred), specific, 1.0);
    }

    private static <K> void weigh(Map<K, double[]> acc, K key, double mean, long weight) {
        double[] a = acc.computeIfAbsent(key, k -> new double[2]);
        a[0] += mean * weight;
        a[1] += weight;
    }

    private static <K> Map<K, Double> means(Map<K, double[]> acc) {
        Map<K, Double> result = new HashMap<>();
        acc.forEach((k, a) -> result.put(k, a[1] == 0 ? 0.0 : a[0] / a[1]));
        return result;
    }

    private static <K, V> Map<String, Map<K, V>> windowed(Map<K, V> values) {
        Map<String, Map<K, V>> result = new HashMap<>();
        for (String w : WINDOWS) {
            result.put(w, new HashMap<>(values));
        }
        return result;
    }
}
