package io.microburst.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.microburst.metrics.StatsHistory;
import io.microburst.metrics.TaskStats;
import io.microburst.runtime.topology.TopologyRuntime;
import io.microburst.runtime.topology.ExecutorView;
import org.apache.storm.Config;
import org.apache.storm.generated.BoltStats;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.DebugOptions;
import org.apache.storm.generated.NimbusSummary;
import org.apache.storm.generated.SupervisorSummary;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.ExecutorInfo;
import org.apache.storm.generated.ExecutorSpecificStats;
import org.apache.storm.generated.ExecutorStats;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.GetInfoOptions;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.NumErrorsChoice;
import org.apache.storm.generated.SpoutStats;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.utils.Utils;

/**
 * Builds Storm's thrift views (cluster, topology and executor summaries) from the counters tasks keep. Counts are
 * exact (nothing is sampled); latencies are means over sampled tuples. Storm's windows (10 min, 3 h, 1 day) are the
 * difference between the counters now and their copy in {@link StatsHistory} from the window's start.
 *
 * <p>Threading: stateless; any thread (counters are read, never written).
 */
public final class ClusterViews {
    static final String VERSION = "microburst-" + String.valueOf(ClusterViews.class.getPackage().getImplementationVersion());
    static final String ALL_TIME = ":all-time";
    private static final String[] WINDOWS = {ALL_TIME, "600", "10800", "86400"};

    private ClusterViews() {
    }

    /**
     * Counts tasks and executors as Storm's Nimbus does, from everything it assigns: the user's and those of the
     * components Storm adds ({@code __acker}, {@code __eventlogger}, {@code __metrics...}, one task per executor), whose
     * task ids Microburst reserves, so that {@code storm list}, the UI and scripts show the numbers Storm shows.
     */
    /** The scheduling status of every topology. */
    public static final String SCHEDULED = "Fully Scheduled in one process";

    public static TopologySummary summary(TopologyRuntime runtime) {
        int systemTasks = 0;
        for (List<Integer> ids : runtime.plan().systemComponentTasks().values()) {
            systemTasks += ids.size();
        }
        TopologySummary s = new TopologySummary(runtime.plan().stormId(), runtime.plan().name(),
            runtime.plan().taskCount() + systemTasks, runtime.componentExecutorCount() + systemTasks, 1,
            runtime.uptimeSecs(), runtime.status());
        s.set_owner(System.getProperty("user.name", ""));
        // what Storm's schedulers report; here every executor always runs in this process
        s.set_sched_status(SCHEDULED);
        return s;
    }

    /** As {@link #info(TopologyRuntime, NumErrorsChoice)}, with the errors {@code options} choose (default: all). */
    public static TopologyInfo info(TopologyRuntime runtime, GetInfoOptions options) {
        return info(runtime, options != null && options.is_set_num_err_choice() ? options.get_num_err_choice()
            : NumErrorsChoice.ALL);
    }

    /**
     * The configuration Nimbus's {@code getTopologyConf} returns, as JSON: the topology's as last stored, without the
     * transactional state server's secret, which stays in the process.
     */
    public static String confJson(TopologyRuntime runtime) {
        Map<String, Object> conf = runtime.stored().conf();
        return JSONValue.toJSONString(Utils.redactValue(conf, Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_PAYLOAD));
    }

    /** The summary of each of {@code runtimes}, in their order. */
    public static List<TopologySummary> summaries(List<TopologyRuntime> runtimes) {
        List<TopologySummary> result = new ArrayList<>();
        for (TopologyRuntime r : runtimes) {
            result.add(summary(r));
        }
        return result;
    }

    /** The live counters of each task of {@code runtime}, executor by executor (Microburst's own view). */
    public static List<TaskStats> taskStats(TopologyRuntime runtime) {
        List<TaskStats> result = new ArrayList<>();
        for (ExecutorView v : runtime.executorViews()) {
            result.addAll(v.tasks());
        }
        return result;
    }

    public static TopologyInfo info(TopologyRuntime runtime, NumErrorsChoice errorChoice) {
        List<ExecutorSummary> executors = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (ExecutorView view : runtime.executorViews()) {
            ExecutorSummary summary = new ExecutorSummary(new ExecutorInfo(view.firstTask(), view.lastTask()),
                view.componentId(), TopologyRuntime.HOST, TopologyRuntime.WORKER_PORT, runtime.uptimeSecs());
            summary.set_stats(stats(view, runtime.statsHistory(), now));
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
        info.set_sched_status(SCHEDULED);
        runtime.eventSampling().all().forEach((component, setting) -> {
            DebugOptions debug = new DebugOptions();
            debug.set_enable(setting.enabled());
            debug.set_samplingpct(setting.pct());
            // Storm keys the whole topology's setting by the topology's id
            info.put_to_component_debug(component.isEmpty() ? info.get_id() : component, debug);
        });
        return info;
    }

    /** The id of the one supervisor {@code getClusterInfo} lists: this process. */
    public static String supervisorId() {
        return "microburst-" + ProcessHandle.current().pid();
    }

    public static ClusterSummary clusterSummary(List<TopologySummary> topologies, int uptimeSecs, int executors) {
        SupervisorSummary supervisor = new SupervisorSummary(TopologyRuntime.HOST, uptimeSecs, 1,
            topologies.isEmpty() ? 0 : 1, supervisorId());
        NimbusSummary nimbus = new NimbusSummary(TopologyRuntime.HOST, 0, uptimeSecs, true, VERSION);
        ClusterSummary summary = new ClusterSummary(List.of(supervisor), topologies, List.of(nimbus));
        return summary;
    }

    private static ExecutorStats stats(ExecutorView view, StatsHistory history, long nowMillis) {
        Map<String, Map<String, Long>> emitted = new HashMap<>();
        Map<String, Map<String, Long>> transferred = new HashMap<>();
        Map<String, Map<String, Long>> spoutAcked = new HashMap<>();
        Map<String, Map<String, Long>> spoutFailed = new HashMap<>();
        Map<String, Map<String, Double>> complete = new HashMap<>();
        Map<String, Map<GlobalStreamId, Long>> acked = new HashMap<>();
        Map<String, Map<GlobalStreamId, Long>> failed = new HashMap<>();
        Map<String, Map<GlobalStreamId, Long>> executed = new HashMap<>();
        Map<String, Map<GlobalStreamId, Double>> process = new HashMap<>();
        Map<String, Map<GlobalStreamId, Double>> execute = new HashMap<>();
        for (int w = 0; w < WINDOWS.length; w++) {
            List<TaskStats> tasks = new ArrayList<>();
            for (TaskStats t : view.tasks()) {
                tasks.add(w == 0 ? t : t.since(history.baseline(t.taskId(), w - 1, nowMillis)));
            }
            Map<String, Long> em = new HashMap<>();
            Map<String, Long> tr = new HashMap<>();
            Map<String, Long> sa = new HashMap<>();
            Map<String, Long> sf = new HashMap<>();
            Map<String, double[]> cl = new HashMap<>();
            Map<GlobalStreamId, Long> ba = new HashMap<>();
            Map<GlobalStreamId, Long> bf = new HashMap<>();
            Map<GlobalStreamId, Long> ex = new HashMap<>();
            Map<GlobalStreamId, double[]> pl = new HashMap<>();
            Map<GlobalStreamId, double[]> el = new HashMap<>();
            for (TaskStats t : tasks) {
                for (int s = 0; s < t.outStreamCount(); s++) {
                    String stream = t.outStream(s);
                    em.merge(stream, t.emitted(s), Long::sum);
                    tr.merge(stream, t.transferred(s), Long::sum);
                    if (view.spout()) {
                        sa.merge(stream, t.spoutAckedCount(s), Long::sum);
                        sf.merge(stream, t.spoutFailedCount(s), Long::sum);
                        weigh(cl, stream, t.completeMsAvg(s), t.spoutAckedCount(s));
                    }
                }
                for (int i = 0; i < t.inputCount(); i++) {
                    GlobalStreamId input = new GlobalStreamId(t.inputComponent(i), t.inputStream(i));
                    ba.merge(input, t.acked(i), Long::sum);
                    bf.merge(input, t.failed(i), Long::sum);
                    ex.merge(input, t.executed(i), Long::sum);
                    weigh(pl, input, t.processMsAvg(i), t.acked(i));
                    weigh(el, input, t.executeMsAvg(i), t.executed(i));
                }
            }
            String window = WINDOWS[w];
            emitted.put(window, em);
            transferred.put(window, tr);
            spoutAcked.put(window, sa);
            spoutFailed.put(window, sf);
            complete.put(window, means(cl));
            acked.put(window, ba);
            failed.put(window, bf);
            executed.put(window, ex);
            process.put(window, means(pl));
            execute.put(window, means(el));
        }
        ExecutorSpecificStats specific = view.spout()
            ? ExecutorSpecificStats.spout(new SpoutStats(spoutAcked, spoutFailed, complete))
            : ExecutorSpecificStats.bolt(new BoltStats(acked, failed, process, executed, execute));
        return new ExecutorStats(emitted, transferred, specific, 1.0);
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
}
