package io.microburst.bench.result;

import java.util.List;
import java.util.Locale;

/** Writes RFC 4180 CSV: fields with commas, quotes or line breaks are quoted, quotes doubled. Stateless. */
public final class Csv {
    private Csv() {
    }

    /** One CSV line (no line break) of {@code fields}; null becomes an empty field. */
    public static String line(List<?> fields) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(field(fields.get(i)));
        }
        return out.toString();
    }

    static String field(Object value) {
        if (value == null) {
            return "";
        }
        String text;
        if (value instanceof Double d) {
            text = Double.isFinite(d) ? String.format(Locale.ROOT, "%.6g", d).trim() : "";
        } else {
            text = value.toString();
        }
        if (text.indexOf(',') >= 0 || text.indexOf('"') >= 0 || text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
            return '"' + text.replace("\"", "\"\"") + '"';
        }
        return text;
    }

    /** Header of the per-run file. */
    public static final List<String> RUN_HEADER = List.of("workload", "family", "parallelism", "runtime", "round", "status",
        "unit", "throughput", "delivered", "window_s", "latency_kind", "p50_us", "p99_us", "p999_us", "max_us", "cpu_cores",
        "threads", "rss_bytes", "startup_ms", "error");

    /** One run as a CSV line matching {@link #RUN_HEADER}. */
    public static String runLine(RunResult r) {
        LatencySummary l = r.latency();
        return line(java.util.Arrays.asList(r.workload(), r.family(), r.parallelism(), r.runtime(), r.round(),
            r.status().name().toLowerCase(Locale.ROOT), r.unit(), r.throughput(), r.delivered(), r.windowSeconds(),
            l == null ? null : l.kind(), l == null ? null : l.p50(), l == null ? null : l.p99(), l == null ? null : l.p999(),
            l == null ? null : l.max(), r.cpuCores(), r.threads(), r.rssBytes() < 0 ? null : r.rssBytes(), r.startupMillis(),
            r.error()));
    }

    /** Header of the summary file. */
    public static final List<String> SUMMARY_HEADER = List.of("workload", "family", "parallelism", "runtime", "unit",
        "rounds_ok", "rounds_run", "throughput_median", "throughput_spread", "vs_storm", "vs_storm_tuned", "of_ceiling_loop",
        "of_ceiling_spsc", "p50_us", "p99_us", "p999_us", "max_us", "cpu_cores", "threads", "rss_bytes", "startup_ms", "error",
        "per_core", "vs_p1");

    /** One summary row as a CSV line matching {@link #SUMMARY_HEADER}. */
    public static String summaryLine(SummaryRow s) {
        LatencySummary l = s.latency();
        return line(java.util.Arrays.asList(s.workload(), s.family(), s.parallelism(), s.runtime(), s.unit(), s.roundsOk(),
            s.roundsRun(), s.throughput(), s.spread(), s.vsStorm(), s.vsStormTuned(), s.ofLoop(), s.ofSpsc(),
            l == null ? null : l.p50(), l == null ? null : l.p99(), l == null ? null : l.p999(), l == null ? null : l.max(),
            s.cpuCores(), s.threads(), s.rssBytes(), s.startupMillis(), s.error(), s.perCore(), s.vsP1()));
    }
}
