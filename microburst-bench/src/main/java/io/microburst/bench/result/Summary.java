package io.microburst.bench.result;

import io.microburst.bench.runtime.RuntimeId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** Turns the runs of a bench into one {@link SummaryRow} per (workload, runtime), in the order they first ran. Stateless. */
public final class Summary {
    private Summary() {
    }

    /** Suffix of a Microburst-only variant whose Storm figures are those of the workload without it. */
    static final String UNFUSED_SUFFIX = "-unfused";

    /**
     * Summarises {@code runs}; skipped runs produce a row with no rounds so the table can say "n/a". A workload named
     * {@code X-unfused} with no Storm figures of its own is compared with X's Storm figures (Storm has no fusion to turn off).
     */
    public static List<SummaryRow> of(List<RunResult> runs) {
        Map<String, Map<String, List<RunResult>>> byWorkload = new LinkedHashMap<>();
        for (RunResult run : runs) {
            byWorkload.computeIfAbsent(run.workload(), w -> new LinkedHashMap<>())
                .computeIfAbsent(run.runtime(), r -> new ArrayList<>()).add(run);
        }
        List<SummaryRow> rows = new ArrayList<>();
        for (Map.Entry<String, Map<String, List<RunResult>>> workload : byWorkload.entrySet()) {
            Map<String, List<RunResult>> byRuntime = workload.getValue();
            Map<String, Double> medians = new LinkedHashMap<>();
            byRuntime.forEach((runtime, results) -> medians.put(runtime, median(ok(results), RunResult::throughput)));
            Map<String, Double> baselines = new LinkedHashMap<>(medians);
            Map<String, List<RunResult>> twin = workload.getKey().endsWith(UNFUSED_SUFFIX) ? byWorkload.get(
                workload.getKey().substring(0, workload.getKey().length() - UNFUSED_SUFFIX.length())) : null;
            if (twin != null) {
                for (RuntimeId storm : List.of(RuntimeId.STORM, RuntimeId.STORM_TUNED)) {
                    double own = medians.getOrDefault(storm.id(), Double.NaN);
                    List<RunResult> theirs = twin.get(storm.id());
                    if (Double.isNaN(own) && theirs != null) {
                        baselines.put(storm.id(), median(ok(theirs), RunResult::throughput));
                    }
                }
            }
            byRuntime.entrySet().stream()
                .sorted(Comparator.comparingInt(e -> runtimeOrder(e.getKey())))
                .forEach(e -> rows.add(row(e.getKey(), e.getValue(), medians, baselines)));
        }
        return rows;
    }

    private static SummaryRow row(String runtime, List<RunResult> results, Map<String, Double> medians,
                                  Map<String, Double> baselines) {
        RunResult first = results.get(0);
        List<RunResult> ok = ok(results);
        int attempted = (int) results.stream().filter(r -> r.status() != RunStatus.SKIPPED).count();
        double throughput = medians.get(runtime);
        String error = ok.isEmpty() ? results.get(results.size() - 1).error() : null;
        return new SummaryRow(first.workload(), first.family(), first.parallelism(), runtime, first.unit(), ok.size(),
            attempted, throughput, Stats.spread(ok.stream().map(RunResult::throughput).toList()), medianLatency(ok),
            median(ok, RunResult::cpuCores), median(ok, r -> r.threads()), median(ok, r -> r.rssBytes() < 0 ? Double.NaN
                : r.rssBytes()), median(ok, RunResult::startupMillis),
            Stats.ratio(throughput, baselines.getOrDefault(RuntimeId.STORM.id(), Double.NaN)),
            Stats.ratio(throughput, baselines.getOrDefault(RuntimeId.STORM_TUNED.id(), Double.NaN)),
            Stats.ratio(throughput, medians.getOrDefault(RuntimeId.CEILING_LOOP.id(), Double.NaN)),
            Stats.ratio(throughput, medians.getOrDefault(RuntimeId.CEILING_SPSC.id(), Double.NaN)), error);
    }

    /** The latency of the round whose p99 is the median one (a real distribution, not a blend of rounds). */
    static LatencySummary medianLatency(List<RunResult> ok) {
        List<LatencySummary> measured = ok.stream().map(RunResult::latency).filter(l -> l != null)
            .sorted(Comparator.comparingDouble(LatencySummary::p99)).toList();
        return measured.isEmpty() ? null : measured.get((measured.size() - 1) / 2);
    }

    private static List<RunResult> ok(List<RunResult> results) {
        return results.stream().filter(RunResult::ok).toList();
    }

    private static double median(List<RunResult> results, ToDoubleFunction<RunResult> field) {
        return Stats.median(results.stream().map(r -> field.applyAsDouble(r)).toList());
    }

    private static int runtimeOrder(String runtime) {
        for (RuntimeId id : RuntimeId.values()) {
            if (id.id().equals(runtime)) {
                return id.ordinal();
            }
        }
        return Integer.MAX_VALUE;
    }
}
