package io.microburst.bench.result;

import java.util.ArrayList;
import java.util.List;

/**
 * The summary as a fixed-width text table: median of rounds per (workload, runtime), its ratio to each Storm profile and
 * its fraction of each ceiling, with latency, CPU cores, threads, resident memory and start-up beside. Stateless.
 */
public final class TerminalTable {
    static final String[] HEADER = {"workload", "runtime", "throughput", "unit", "vs storm", "vs tuned", "of loop",
        "of spsc", "per core", "vs p1", "p50", "p99", "p99.9", "max", "cores", "threads", "rss", "start-up", "rounds"};

    private TerminalTable() {
    }

    /** The table, one line per row, with a blank line between workloads. */
    public static String render(List<SummaryRow> rows) {
        List<String[]> cells = new ArrayList<>();
        cells.add(HEADER);
        String previous = null;
        List<Integer> breaks = new ArrayList<>();
        for (SummaryRow row : rows) {
            if (previous != null && !previous.equals(row.workload())) {
                breaks.add(cells.size());
            }
            previous = row.workload();
            cells.add(cells(row));
        }
        int[] widths = new int[HEADER.length];
        for (String[] line : cells) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < cells.size(); r++) {
            if (breaks.contains(r)) {
                out.append('\n');
            }
            String[] line = cells.get(r);
            for (int i = 0; i < line.length; i++) {
                boolean leftAligned = i < 2 || i == 3;
                String cell = line[i];
                String pad = " ".repeat(widths[i] - cell.length());
                out.append(leftAligned ? cell + pad : pad + cell);
                out.append(i + 1 < line.length ? "  " : "");
            }
            out.append('\n');
            if (r == 0) {
                int total = 0;
                for (int w : widths) {
                    total += w + 2;
                }
                out.append("-".repeat(total - 2)).append('\n');
            }
        }
        return out.toString();
    }

    static String[] cells(SummaryRow row) {
        LatencySummary latency = row.latency();
        boolean none = row.roundsRun() == 0;
        boolean failed = !none && row.roundsOk() == 0;
        String throughput = none ? "n/a" : failed ? "FAILED" : Format.count(row.throughput());
        return new String[] {
            row.workload(), row.runtime(), throughput, row.unit(),
            Format.ratio(row.vsStorm()), Format.ratio(row.vsStormTuned()), Format.percent(row.ofLoop()),
            Format.percent(row.ofSpsc()), Format.count(row.perCore()), Format.ratio(row.vsP1()),
            latency == null ? Format.MISSING : Format.micros(latency.p50()),
            latency == null ? Format.MISSING : Format.micros(latency.p99()),
            latency == null ? Format.MISSING : Format.micros(latency.p999()),
            latency == null ? Format.MISSING : Format.micros(latency.max()),
            Format.decimal(row.cpuCores()), Double.isFinite(row.threads()) ? String.valueOf(Math.round(row.threads())) : "-",
            Format.megabytes(row.rssBytes()), Format.millis(row.startupMillis()),
            none ? "-" : row.roundsOk() + "/" + row.roundsRun()};
    }
}
