package io.microburst.cli.display;

import io.microburst.cli.stats.ComponentKind;
import io.microburst.cli.stats.ComponentRate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A compact table redrawn in place on an ANSI terminal: each frame moves the cursor up over the previous frame's
 * lines and overwrites them, clearing what is left of each line.
 *
 * <p>Not thread-safe: it remembers how many lines it drew last.
 */
public final class AnsiTableRenderer implements FrameRenderer {
    static final String ESC = "\u001b[";
    static final String CLEAR_TO_END_OF_LINE = ESC + "K";
    static final String CLEAR_TO_END_OF_SCREEN = ESC + "J";
    private static final String ROW = "%-20s %-5s %4s %10s %10s %12s %12s";

    private int linesDrawn;

    @Override
    public String render(LiveFrame frame) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "%s  running %ds", frame.topologyName(), frame.elapsed().toSeconds()));
        lines.add(String.format(Locale.ROOT, ROW, "component", "kind", "exec", "in/s", "out/s", "executed", "emitted"));
        for (ComponentRate rate : frame.components()) {
            boolean spout = rate.kind() == ComponentKind.SPOUT;
            // Spouts execute nothing: a dash, not a misleading zero.
            lines.add(String.format(Locale.ROOT, ROW, truncate(rate.componentId(), 20),
                    rate.kind().name().toLowerCase(Locale.ROOT), rate.executors(),
                    spout ? "-" : Numbers.human(rate.executedPerSecond()), Numbers.human(rate.emittedPerSecond()),
                    spout ? "-" : Numbers.human(rate.executed()), Numbers.human(rate.emitted())));
        }
        StringBuilder text = new StringBuilder();
        if (linesDrawn > 0) {
            text.append(ESC).append(linesDrawn).append('A').append('\r');
        }
        for (String line : lines) {
            text.append(line).append(CLEAR_TO_END_OF_LINE).append(System.lineSeparator());
        }
        // A frame with fewer rows than the last one must not leave stale rows below it.
        text.append(CLEAR_TO_END_OF_SCREEN);
        linesDrawn = lines.size();
        return text.toString();
    }

    private static String truncate(String text, int width) {
        return text.length() <= width ? text : text.substring(0, width - 1) + "~";
    }
}
