package io.microburst.cli.display;

import io.microburst.cli.stats.ComponentCounters;
import io.microburst.cli.stats.ComponentKind;
import java.util.Locale;

/** Formats a {@link RunSummary} as plain text, one fact per line. Stateless. */
public final class SummaryFormatter {
    private SummaryFormatter() {
    }

    public static String format(RunSummary summary) {
        String nl = System.lineSeparator();
        StringBuilder text = new StringBuilder();
        text.append("Summary of ").append(summary.topologyName()).append(nl);
        line(text, "words counted", String.format(Locale.ROOT, "%,d", summary.wordsCounted()));
        line(text, "words/s", Numbers.human(summary.wordsPerSecond()) + String.format(Locale.ROOT,
                "  (over %.1f s, start-up included)", summary.wallTime().toMillis() / 1000.0));
        for (ComponentCounters component : summary.components()) {
            String totals = component.kind() == ComponentKind.SPOUT
                    ? String.format(Locale.ROOT, "emitted %,d", component.emitted())
                    : String.format(Locale.ROOT, "executed %,d, emitted %,d", component.executed(),
                    component.emitted());
            line(text, "  " + component.componentId() + " x" + component.executors(), totals);
        }
        line(text, "threads", summary.liveThreads() + " live in the JVM, " + summary.engineThreads()
                + " started by the engine");
        line(text, "start-up", summary.startup()
                .map(d -> d.toMillis() + " ms (cluster construction to first word counted)")
                .orElse("no word was counted"));
        line(text, "CPU", summary.coresUsed() < 0 ? "unknown"
                : String.format(Locale.ROOT, "%.2f cores (process CPU time / wall time)", summary.coresUsed()));
        line(text, "resident memory", summary.residentBytes().isPresent()
                ? Numbers.mebibytes(summary.residentBytes().getAsLong()) : "unknown");
        return text.toString();
    }

    private static void line(StringBuilder text, String label, String value) {
        text.append(String.format(Locale.ROOT, "  %-22s %s", label, value)).append(System.lineSeparator());
    }
}
