package io.microburst.bench.result;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Horizontal bars of ratios against a baseline (Storm), one group per workload, on a log axis centred on 1x: a bar to the
 * right is faster than the baseline, to the left slower, and equal distances mean equal factors. A ratio beyond
 * {@link #ABSURD} (either way) is drawn hatched and labelled "check": on a shared machine it usually means the baseline
 * run stalled, and it should not be quoted before its run is looked at. Build on one thread, then {@link #render}.
 */
final class RatioChart {
    /** A ratio this far from 1x (above it, or below its inverse) is flagged rather than believed. */
    static final double ABSURD = 100;

    /** One bar: its group (workload), what it compares (e.g. "throughput"), the ratio, and its colour. */
    record Bar(String group, String measure, double ratio, String color) {
    }

    private static final int LEFT = 260;
    private static final int RIGHT = 300;
    private static final int TOP = 40;
    private static final int BAR = 12;
    private static final int GAP = 10;

    private final String title;
    private final List<Bar> bars = new ArrayList<>();

    RatioChart(String title) {
        this.title = title;
    }

    RatioChart add(Bar bar) {
        if (Double.isFinite(bar.ratio()) && bar.ratio() > 0) {
            bars.add(bar);
        }
        return this;
    }

    boolean isEmpty() {
        return bars.isEmpty();
    }

    /** Whether {@code ratio} is beyond belief (see {@link #ABSURD}). */
    static boolean absurd(double ratio) {
        return Double.isFinite(ratio) && (ratio > ABSURD || ratio < 1 / ABSURD);
    }

    String render(int width) {
        List<String> groups = new ArrayList<>();
        for (Bar b : bars) {
            if (!groups.contains(b.group())) {
                groups.add(b.group());
            }
        }
        double lo = 1;
        double hi = 1;
        for (Bar b : bars) {
            lo = Math.min(lo, b.ratio());
            hi = Math.max(hi, b.ratio());
        }
        double[] range = {Math.pow(10, Math.floor(Math.log10(lo) - 1e-9)), Math.pow(10, Math.ceil(Math.log10(hi) + 1e-9))};
        if (range[0] == range[1]) {
            range[1] = range[0] * 10;
        }
        int rows = 0;
        for (String g : groups) {
            rows += bars.stream().filter(b -> b.group().equals(g)).count();
        }
        int plotW = width - LEFT - RIGHT;
        int height = TOP + rows * BAR + groups.size() * GAP + 40;
        int plotH = height - TOP - 40;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100%%\" viewBox=\"0 0 %d %d\" "
            + "font-family=\"sans-serif\" font-size=\"11\">%n", width, height));
        svg.append("<defs><pattern id=\"absurd\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
            + "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fff\"/><rect width=\"3\" height=\"6\" "
            + "fill=\"#e08000\"/></pattern></defs>\n");
        svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"18\" font-size=\"13\" font-weight=\"bold\">%s</text>%n",
            Html.escape(title)));
        for (double t = range[0]; t <= range[1] * 1.0001; t *= 10) {
            double px = LEFT + SvgChart.scale(t, range, true) * plotW;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>"
                + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%sx</text>%n", px, TOP - 6, px, TOP + plotH,
                t == 1 ? "#333" : "#ddd", px, TOP + plotH + 14, SvgChart.label(t)));
        }
        double one = LEFT + SvgChart.scale(1, range, true) * plotW;
        int y = TOP;
        for (String g : groups) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n", LEFT - 8,
                y + BAR - 2, Html.escape(g)));
            for (Bar b : bars) {
                if (!b.group().equals(g)) {
                    continue;
                }
                double px = LEFT + SvgChart.scale(b.ratio(), range, true) * plotW;
                boolean flagged = absurd(b.ratio());
                svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" fill=\"%s\">%s</text>%n", Math.min(px, one), y, Math.max(1, Math.abs(px - one)),
                    BAR - 2, flagged ? "url(#absurd)" : b.color(), Math.max(px, one) + 4, y + BAR - 3,
                    flagged ? "#b00" : "#222", Html.escape(Format.ratio(b.ratio()) + " " + b.measure()
                        + (flagged ? " (check: beyond " + SvgChart.label(ABSURD) + "x)" : ""))));
                y += BAR;
            }
            y += GAP;
        }
        svg.append("</svg>\n");
        return svg.toString();
    }
}
