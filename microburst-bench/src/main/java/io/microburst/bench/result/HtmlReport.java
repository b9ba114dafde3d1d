package io.microburst.bench.result;

import io.microburst.bench.runtime.RuntimeId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The bench report as one self-contained HTML file: summary table, throughput-versus-parallelism charts (as in the Storm-MC
 * thesis' Figure 5.1), latency CDFs (as in the Heron latency study's Figures 8 and 10), failures and every run. Charts are
 * inline SVG: no script, no stylesheet or font from the network, so the file reads offline. Stateless.
 */
public final class HtmlReport {
    /** Drawing units of a chart; the page scales it to its own width. */
    private static final int CHART_WIDTH = 1200;
    private static final int CHART_HEIGHT = 380;

    private HtmlReport() {
    }

    /** The report for a bench described by {@code meta}. */
    public static String render(BenchMeta meta, List<RunResult> runs, List<SummaryRow> rows) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Microburst bench ")
            .append(Html.escape(meta.started())).append("</title>\n<style>\n")
            .append("body{font-family:sans-serif;margin:24px;color:#222}")
            .append("table{border-collapse:collapse;font-size:12px;margin:8px 0 24px}")
            .append("th,td{border:1px solid #ccc;padding:3px 6px;text-align:right}")
            .append("th{background:#f4f4f4}td.l,th.l{text-align:left}tr.sep td{border-top:2px solid #888}")
            .append(".fail{color:#b00}.note{color:#555;font-size:13px}figure{display:block;margin:8px 0 20px;width:100%}")
            .append("td.absurd{background:#fde8c8;color:#b00;font-weight:bold}\n")
            .append("</style></head><body>\n");
        html.append("<h1>Microburst bench</h1>\n");
        meta(html, meta);
        html.append("<h2>Summary: median of rounds</h2>\n");
        summaryTable(html, rows);
        ratioChart(html, rows);
        flinkRatioChart(html, rows);
        scalingCharts(html, meta, rows);
        latencyCharts(html, rows);
        failures(html, runs);
        runsTable(html, runs);
        html.append("</body></html>\n");
        return html.toString();
    }

    private static void meta(StringBuilder html, BenchMeta meta) {
        html.append("<p class=\"note\">Started ").append(Html.escape(meta.started()))
            .append(meta.finished() == null ? " (still running: partial results)" : ", finished "
                + Html.escape(meta.finished()))
            .append(". ").append(meta.cores()).append(" cores, Java ").append(Html.escape(meta.java())).append(", ")
            .append(Html.escape(meta.os())).append(". ").append(meta.rounds()).append(" round(s), warm-up ")
            .append(Format.decimal(meta.warmupSeconds())).append(" s, measured ").append(Format.decimal(meta.measureSeconds()))
            .append(" s, every runtime in its own JVM with <code>").append(Html.escape(meta.heap())).append("</code>")
            .append(meta.quick() ? ". Quick bench: figures are indicative only." : ".").append("</p>\n");
        html.append("<p class=\"note\">Throughput counts tuples at the last component. Ratios compare medians taken in this "
            + "run; on a shared, noisy machine a ratio is a figure, an absolute number alone is not. \"of loop\" and \"of "
            + "spsc\" give the fraction of the hand-written ceilings: one thread doing all the work, and two threads joined "
            + "by one SPSC queue.</p>\n");
    }

    private static void summaryTable(StringBuilder html, List<SummaryRow> rows) {
        html.append("<table><tr>");
        for (int i = 0; i < TerminalTable.HEADER.length; i++) {
            html.append(i < 2 || i == 3 ? "<th class=\"l\">" : "<th>").append(Html.escape(TerminalTable.HEADER[i]))
                .append("</th>");
        }
        html.append("</tr>\n");
        String previous = null;
        for (SummaryRow row : rows) {
            boolean sep = previous != null && !previous.equals(row.workload());
            previous = row.workload();
            String[] cells = TerminalTable.cells(row);
            html.append(sep ? "<tr class=\"sep\">" : "<tr>");
            for (int i = 0; i < cells.length; i++) {
                boolean fail = i == 2 && "FAILED".equals(cells[i]);
                if ((i == 4 && RatioChart.absurd(row.vsStorm())) || (i == 5 && RatioChart.absurd(row.vsStormTuned()))) {
                    html.append("<td class=\"absurd\" title=\"beyond ").append(SvgChart.label(RatioChart.ABSURD))
                        .append("x either way: check the Storm run (it may have stalled) before quoting this ratio\">")
                        .append(Html.escape(cells[i])).append(" ?</td>");
                    continue;
                }
                html.append(i < 2 || i == 3 ? "<td class=\"l\"" : "<td").append(fail ? " title=\""
                    + Html.escape(row.error()) + "\"><span class=\"fail\">" : ">").append(Html.escape(cells[i]))
                    .append(fail ? "</span>" : "").append("</td>");
            }
            html.append("</tr>\n");
        }
        html.append("</table>\n");
    }

    /**
     * Microburst's ratios against Storm's defaults, per workload: throughput, and throughput per core used (so a
     * workload that wins only by using more cores shows it). Variants that Storm does not run use their twin's figures.
     */
    /**
     * Microburst's ratios against Flink's local execution, for the workloads Flink ran: throughput, and throughput per core
     * used. Nothing when Flink ran none.
     */
    private static void flinkRatioChart(StringBuilder html, List<SummaryRow> rows) {
        Map<String, SummaryRow> flink = new LinkedHashMap<>();
        for (SummaryRow row : rows) {
            if (row.runtime().equals(RuntimeId.FLINK.id()) && row.roundsOk() > 0) {
                flink.put(row.workload(), row);
            }
        }
        RatioChart chart = new RatioChart("Microburst against Flink's local execution, per workload (log scale; 1x = as "
            + "fast as Flink)");
        for (SummaryRow row : rows) {
            SummaryRow theirs = flink.get(row.workload());
            if (!row.runtime().equals(RuntimeId.MICROBURST.id()) || row.roundsOk() == 0 || theirs == null) {
                continue;
            }
            chart.add(new RatioChart.Bar(row.workload(), "throughput", Stats.ratio(row.throughput(), theirs.throughput()),
                color(RuntimeId.MICROBURST)));
            chart.add(new RatioChart.Bar(row.workload(), "per core", Stats.ratio(row.perCore(), theirs.perCore()),
                "#f28e8e"));
        }
        if (chart.isEmpty()) {
            return;
        }
        html.append("<h2>Ratios against Flink</h2>\n<p class=\"note\">Median throughput over Flink's median in the same run, "
            + "and the same per CPU core used, for the workloads with a Flink DataStream version.</p>\n<figure>")
            .append(chart.render(CHART_WIDTH)).append("</figure>\n");
    }

    private static void ratioChart(StringBuilder html, List<SummaryRow> rows) {
        Map<String, SummaryRow> storm = new LinkedHashMap<>();
        for (SummaryRow row : rows) {
            if (row.runtime().equals(RuntimeId.STORM.id()) && row.roundsOk() > 0) {
                storm.put(row.workload(), row);
            }
        }
        RatioChart chart = new RatioChart("Microburst against Storm's defaults, per workload (log scale; 1x = as fast as "
            + "Storm)");
        for (SummaryRow row : rows) {
            if (!row.runtime().equals(RuntimeId.MICROBURST.id()) || row.roundsOk() == 0) {
                continue;
            }
            chart.add(new RatioChart.Bar(row.workload(), "throughput", row.vsStorm(), color(RuntimeId.MICROBURST)));
            SummaryRow theirs = storm.get(row.workload());
            if (theirs == null) {
                theirs = storm.get(Summary.twinName(row.workload()));
            }
            if (theirs != null) {
                chart.add(new RatioChart.Bar(row.workload(), "per core", Stats.ratio(row.perCore(), theirs.perCore()),
                    "#f28e8e"));
            }
        }
        if (chart.isEmpty()) {
            return;
        }
        html.append("<h2>Ratios against Storm</h2>\n<p class=\"note\">Median throughput over Storm's median in the same run, "
            + "and the same per CPU core used. Hatched bars are beyond ").append(SvgChart.label(RatioChart.ABSURD))
            .append("x either way: check those runs before quoting them.</p>\n<figure>")
            .append(chart.render(CHART_WIDTH)).append("</figure>\n");
    }

    private static void scalingCharts(StringBuilder html, BenchMeta meta, List<SummaryRow> rows) {
        Map<String, List<SummaryRow>> families = new LinkedHashMap<>();
        for (SummaryRow row : rows) {
            families.computeIfAbsent(row.family(), f -> new ArrayList<>()).add(row);
        }
        boolean heading = false;
        for (Map.Entry<String, List<SummaryRow>> family : families.entrySet()) {
            Set<Integer> parallelisms = new LinkedHashSet<>();
            family.getValue().forEach(r -> parallelisms.add(r.parallelism()));
            if (parallelisms.size() < 2) {
                continue;
            }
            if (!heading) {
                html.append("<h2>Throughput versus parallelism</h2>\n<p class=\"note\">Every component at the parallelism on the "
                    + "x axis. Measured on ").append(meta.cores()).append(" cores: beyond ").append(meta.cores())
                    .append(" busy threads, parallelism only adds contention here. On more cores a runtime with one thread "
                        + "per executor and no per-topology daemons should keep scaling until the spouts or the fields-"
                        + "grouped counters saturate; one with many service threads per executor flattens earlier.</p>\n");
                heading = true;
            }
            String cores = " (" + meta.cores() + " cores)";
            figure(html, byParallelism(family.getKey() + ": throughput at the last component vs parallelism" + cores,
                family.getValue().get(0).unit() + " (log scale)", family.getValue(), SummaryRow::throughput, true));
            figure(html, byParallelism(family.getKey() + ": live threads vs parallelism" + cores, "live threads",
                family.getValue(), SummaryRow::threads, false));
        }
    }

    private static SvgChart byParallelism(String title, String yLabel, List<SummaryRow> rows,
                                          ToDoubleFunction<SummaryRow> y, boolean throughput) {
        // throughput on a log scale, so a runtime ten times slower is still a line one can read, not one on the axis
        SvgChart chart = new SvgChart(title, "parallelism of every component", yLabel, false, throughput).integerX();
        for (RuntimeId runtime : RuntimeId.values()) {
            if (!throughput && isCeiling(runtime)) {
                continue; // a ceiling bounds throughput; its threads are no reference for anything
            }
            List<double[]> points = rows.stream().filter(r -> r.runtime().equals(runtime.id()))
                .sorted((a, b) -> Integer.compare(a.parallelism(), b.parallelism()))
                .map(r -> new double[] {r.parallelism(), y.applyAsDouble(r)}).toList();
            chart.add(new SvgChart.Series(seriesName(runtime), color(runtime), isCeiling(runtime), points));
        }
        return chart;
    }

    private static void latencyCharts(StringBuilder html, List<SummaryRow> rows) {
        Map<String, List<SummaryRow>> byWorkload = new LinkedHashMap<>();
        for (SummaryRow row : rows) {
            if (row.latency() != null) {
                byWorkload.computeIfAbsent(row.workload(), w -> new ArrayList<>()).add(row);
            }
        }
        if (byWorkload.isEmpty()) {
            return;
        }
        html.append("<h2>Latency distributions</h2>\n<p class=\"note\">Cumulative distribution of end-to-end latency (spout "
            + "stamp to bolt) or complete latency (emit to ack), from the round with the median p99. Latency on a log "
            + "scale; the percentile axis gives each step of the tail (90%, 99%, 99.9%...) the same room. A ceiling is the "
            + "hand-written code's own latency: a floor no runtime can beat, not a competitor.</p>\n");
        for (Map.Entry<String, List<SummaryRow>> workload : byWorkload.entrySet()) {
            String kind = workload.getValue().get(0).latency().kind();
            SvgChart chart = new SvgChart(workload.getKey() + ": " + kind + " latency CDF", kind + " latency (microseconds)",
                "percentile", true, false).percentileY();
            for (SummaryRow row : workload.getValue()) {
                RuntimeId runtime = runtimeOf(row.runtime());
                List<double[]> points = row.latency().cdf().stream().map(p -> new double[] {p.micros(), p.percentile()})
                    .toList();
                chart.add(new SvgChart.Series(runtime == null ? row.runtime() : seriesName(runtime),
                    runtime == null ? "#000" : color(runtime), runtime != null && isCeiling(runtime), points));
            }
            figure(html, chart);
        }
    }

    private static void failures(StringBuilder html, List<RunResult> runs) {
        List<RunResult> failed = runs.stream().filter(r -> r.status() == RunStatus.FAILED).toList();
        if (failed.isEmpty()) {
            return;
        }
        html.append("<h2 class=\"fail\">Failed runs</h2>\n<table><tr><th class=\"l\">run</th><th class=\"l\">error</th>"
            + "<th class=\"l\">log</th></tr>\n");
        for (RunResult r : failed) {
            html.append("<tr><td class=\"l\">").append(Html.escape(r.workload() + " on " + r.runtime() + ", round "
                + r.round())).append("</td><td class=\"l\">").append(Html.escape(r.error())).append("</td><td class=\"l\">")
                .append(Html.escape(r.log())).append("</td></tr>\n");
        }
        html.append("</table>\n");
    }

    private static void runsTable(StringBuilder html, List<RunResult> runs) {
        html.append("<h2>Every run</h2>\n<table><tr><th class=\"l\">workload</th><th class=\"l\">runtime</th><th>round</th>"
            + "<th class=\"l\">status</th><th>throughput</th><th>p50</th><th>p99</th><th>p99.9</th><th>max</th>"
            + "<th>cores</th><th>threads</th><th>rss</th><th>start-up</th></tr>\n");
        for (RunResult r : runs) {
            LatencySummary l = r.latency();
            html.append("<tr><td class=\"l\">").append(Html.escape(r.workload())).append("</td><td class=\"l\">")
                .append(Html.escape(r.runtime())).append("</td><td>").append(r.round()).append("</td><td class=\"l\">")
                .append(r.status().name().toLowerCase(Locale.ROOT)).append("</td><td>").append(Format.count(r.throughput()))
                .append("</td><td>").append(l == null ? "-" : Format.micros(l.p50())).append("</td><td>")
                .append(l == null ? "-" : Format.micros(l.p99())).append("</td><td>")
                .append(l == null ? "-" : Format.micros(l.p999())).append("</td><td>")
                .append(l == null ? "-" : Format.micros(l.max())).append("</td><td>").append(Format.decimal(r.cpuCores()))
                .append("</td><td>").append(r.ok() ? String.valueOf(r.threads()) : "-").append("</td><td>")
                .append(Format.megabytes(r.ok() ? r.rssBytes() : Double.NaN)).append("</td><td>")
                .append(Format.millis(r.startupMillis())).append("</td></tr>\n");
        }
        html.append("</table>\n");
    }

    private static void figure(StringBuilder html, SvgChart chart) {
        if (!chart.isEmpty()) {
            html.append("<figure>").append(chart.render(CHART_WIDTH, CHART_HEIGHT)).append("</figure>\n");
        }
    }

    private static RuntimeId runtimeOf(String id) {
        for (RuntimeId runtime : RuntimeId.values()) {
            if (runtime.id().equals(id)) {
                return runtime;
            }
        }
        return null;
    }

    private static String seriesName(RuntimeId runtime) {
        return isCeiling(runtime) ? "ceiling: " + runtime.label() : runtime.label();
    }

    private static boolean isCeiling(RuntimeId runtime) {
        return runtime == RuntimeId.CEILING_LOOP || runtime == RuntimeId.CEILING_SPSC;
    }

    static String color(RuntimeId runtime) {
        return switch (runtime) {
            case MICROBURST -> "#d62728";
            case STORM -> "#1f77b4";
            case STORM_TUNED -> "#9467bd";
            case CEILING_LOOP -> "#555555";
            case CEILING_SPSC -> "#999999";
            case STORM_CLUSTER_2W -> "#8c564b";
            case FLINK -> "#e377c2";
        };
    }
}
