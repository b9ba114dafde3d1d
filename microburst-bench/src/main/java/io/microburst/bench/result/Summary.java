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

    /** Summarises {@code runs}; skipped runs produce a row with no rounds so the table can say "n/a". */
    public static List<SummaryRow> of(List<RunResult> runs) {
        Map<String, Map<String, List<RunResult>>> byWorkload = new LinkedHashMap<>();
        for (RunResult run : runs) {
            byWorkload.computeIfAbsent(run.workload(), w -> new LinkedHashMap<>())
                .computeIfAbsent(run.runtime(), r -> new ArrayList<>()).add(run);
        }
        List<SummaryRow> rows = new ArrayList<>();
        for (Map<String, List<RunResult>> byRuntime : byWorkload.values()) {
            Map<String, Double> medians = new LinkedHashMap<>();
            byRuntime.forEach((runtime, results) -> medians.put(runtime, median(ok(results), RunResult::throughput)));
            byRuntime.entrySet().stream()
                .sorted(Comparator.comparingInt(e -> runtimeOrder(e.getKey())))
                .forEach(e -> rows.add(row(e.getKey(), e.getValue(), medians)));
        }
        return rows;
    }

    private static SummaryRow row(String runtime, List<RunResult> results, Map<String, Double> medians) {
        RunResult first = results.get(0);
        List<RunResult> ok = ok(results);
        int attempted = (int) results.stream().filter(r -> r.status() != RunStatus.SKIPPED).count();
        double throughput = medians.get(runtime);
        String error = ok.isEmpty() ? results.get(results.size() - 1).error() : null;
        return new SummaryRow(first.workload(), first.family(), first.parallelism(), runtime, first.unit(), ok.size(),
            attempted, throughput, Stats.spread(ok.stream().map(RunResult::throughput).toList()), medianLatency(ok),
            median(ok, RunResult::cpuCores), median(ok, r -> r.threads()), median(ok, r -> r.rssBytes() < 0 ? Double.NaN
                : r.rssBytes()), median(ok, RunResult::startupMillis),
            Stats.ratio(throughput, medians.getOrDefault(RuntimeId.STORM.id(), Double.NaN)),
            Stats.ratio(throughput, medians.getOrDefault(RuntimeId.STORM_TUNED.id(), Double.NaN)),
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
