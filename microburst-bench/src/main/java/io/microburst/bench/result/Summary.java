package io.microburst.bench.result;

import io.microburst.bench.runtime.RuntimeId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** Turns the runs of a bench into one {@link SummaryRow} per (workload, runtime), in the order they first ran. Stateless. */
public final class Summary {
    private Summary() {
    }

    /** Suffixes of the Microburst-only variants whose Storm figures are those of the workload without the suffix. */
    static final List<String> MICROBURST_ONLY_SUFFIXES = List.of("-unfused", "-static");

    /**
     * Summarises {@code runs}; skipped runs produce a row with no rounds so the table can say "n/a". A workload named
     * {@code X-unfused} or {@code X-static} with no Storm figures of its own is compared with X's Storm figures (Storm has
     * no fusion or placement to switch).
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
            Map<String, List<RunResult>> twin = twinOf(workload.getKey(), byWorkload);
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
        return withSpeedUps(rows);
    }

    /**
     * Sets each scaling row's speed-up over the same family and runtime at parallelism 1 (parallel efficiency is the
     * speed-up over the parallelism). Rows of a workload that is its own family do not scale and keep NaN.
     */
    private static List<SummaryRow> withSpeedUps(List<SummaryRow> rows) {
        Map<String, Double> atOne = new HashMap<>();
        for (SummaryRow r : rows) {
            if (r.parallelism() == 1 && !r.family().equals(r.workload())) {
                atOne.put(r.family() + "\n" + r.runtime(), r.throughput());
            }
        }
        List<SummaryRow> out = new ArrayList<>(rows.size());
        for (SummaryRow r : rows) {
            Double base = r.family().equals(r.workload()) ? null : atOne.get(r.family() + "\n" + r.runtime());
            out.add(base == null ? r : r.withVsP1(Stats.ratio(r.throughput(), base)));
        }
        return out;
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
            Stats.ratio(throughput, medians.getOrDefault(RuntimeId.CEILING_SPSC.id(), Double.NaN)), error,
            Stats.ratio(throughput, median(ok, RunResult::cpuCores)), Double.NaN);
    }

    /** The name of the workload a Microburst-only variant was made from, or null for any other workload. */
    static String twinName(String workload) {
        for (String suffix : MICROBURST_ONLY_SUFFIXES) {
            if (workload.endsWith(suffix)) {
                return workload.substring(0, workload.length() - suffix.length());
            }
        }
        return null;
    }

    /** The runs of the workload a Microburst-only variant (see {@link #MICROBURST_ONLY_SUFFIXES}) was made from, or null. */
    private static Map<String, List<RunResult>> twinOf(String workload, Map<String, Map<String, List<RunResult>>> all) {
        for (String suffix : MICROBURST_ONLY_SUFFIXES) {
            if (workload.endsWith(suffix)) {
                return all.get(workload.substring(0, workload.length() - suffix.length()));
            }
        }
        return null;
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
