package io.microburst.bench.result;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart drawn as inline SVG, with linear or logarithmic axes, so the report needs no script and no network.
 * Build on one thread, then {@link #render}.
 */
final class SvgChart {
    /** One line of the chart: points in data units, drawn in {@code color}, dashed for reference lines such as ceilings. */
    record Series(String name, String color, boolean dashed, List<double[]> points) {
    }

    private static final int LEFT = 70;
    private static final int RIGHT = 170;
    private static final int TOP = 30;
    private static final int BOTTOM = 45;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logX;
    private final boolean logY;
    private final List<Series> series = new ArrayList<>();
    private Double yMinFixed;
    private Double yMaxFixed;
    private boolean integerX;

    SvgChart(String title, String xLabel, String yLabel, boolean logX, boolean logY) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
        this.logY = logY;
    }

    SvgChart add(Series s) {
        series.add(s);
        return this;
    }

    /** Fixes the y range instead of fitting it to the data (e.g. 0 to 100 for percentiles). */
    SvgChart yRange(double min, double max) {
        yMinFixed = min;
        yMaxFixed = max;
        return this;
    }

    /** Marks the x axis as whole numbers (parallelism): a tick at each, and a little room at both ends. */
    SvgChart integerX() {
        integerX = true;
        return this;
    }

    boolean isEmpty() {
        return series.stream().allMatch(s -> usable(s).isEmpty());
    }

    String render(int width, int height) {
        double[] xr = range(true);
        if (integerX) {
            double[] data = dataRange(true);
            xr = new double[] {Math.floor(data[0]) - 0.25, Math.ceil(data[1]) + 0.25};
        }
        double[] yr = range(false);
        if (yMinFixed != null) {
            yr = new double[] {yMinFixed, yMaxFixed};
        } else if (!logY) {
            yr[0] = Math.min(0, yr[0]);
        }
        int plotW = width - LEFT - RIGHT;
        int plotH = height - TOP - BOTTOM;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n", width, height, width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"13\" font-weight=\"bold\">%s</text>%n",
            LEFT, Html.escape(title)));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
            + "stroke=\"#999\"/>%n", LEFT, TOP, plotW, plotH));
        for (double tick : integerX ? integerTicks(xr) : ticks(xr, logX)) {
            double px = LEFT + scale(tick, xr, logX) * plotW;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>"
                + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", px, TOP, px, TOP + plotH, px,
                TOP + plotH + 14, Html.escape(label(tick))));
        }
        for (double tick : ticks(yr, logY)) {
            double py = TOP + plotH - scale(tick, yr, logY) * plotH;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>"
                + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT, py, LEFT + plotW, py, LEFT - 4, py + 4,
                Html.escape(label(tick))));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
            LEFT + plotW / 2, height - 8, Html.escape(xLabel)));
        svg.append(String.format(Locale.ROOT, "<text transform=\"translate(14,%d) rotate(-90)\" text-anchor=\"middle\">%s"
            + "</text>%n", TOP + plotH / 2, Html.escape(yLabel)));
        int legendY = TOP + 10;
        for (Series s : series) {
            List<double[]> points = usable(s);
            if (points.isEmpty()) {
                continue;
            }
            String dash = s.dashed() ? " stroke-dasharray=\"5,3\"" : "";
            StringBuilder path = new StringBuilder();
            for (double[] p : points) {
                double px = LEFT + scale(p[0], xr, logX) * plotW;
                double py = TOP + plotH - scale(p[1], yr, logY) * plotH;
                path.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>", px, py,
                    s.color()));
            }
            svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s/>"
                + "%n", path.toString().trim(), s.color(), dash));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                + "stroke-width=\"2\"%s/><text x=\"%d\" y=\"%d\">%s</text>%n", LEFT + plotW + 10, legendY,
                LEFT + plotW + 30, legendY, s.color(), dash, LEFT + plotW + 35, legendY + 4, Html.escape(s.name())));
            legendY += 16;
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private List<double[]> usable(Series s) {
        return s.points().stream().filter(p -> Double.isFinite(p[0]) && Double.isFinite(p[1]) && (!logX || p[0] > 0)
            && (!logY || p[1] > 0)).toList();
    }

    /** Smallest and largest plotted value on one axis; {1, 10} when nothing is plotted. */
    private double[] dataRange(boolean x) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (double[] p : usable(s)) {
                double v = x ? p[0] : p[1];
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        return min == Double.POSITIVE_INFINITY ? new double[] {1, 10} : new double[] {min, max};
    }

    /** The axis range: whole decades on a log axis, else the data plus a little headroom. */
    private double[] range(boolean x) {
        double[] data = dataRange(x);
        double min = data[0];
        double max = data[1];
        boolean log = x ? logX : logY;
        if (log) {
            return new double[] {Math.pow(10, Math.floor(Math.log10(min))), Math.pow(10, Math.ceil(Math.log10(max)))
                * (Math.log10(max) % 1 == 0 ? 10 : 1)};
        }
        if (max == min) {
            return new double[] {min - 1, max + 1};
        }
        return new double[] {min, max + (max - min) * 0.05};
    }

    /** Position of {@code v} in {@code range}, 0 to 1. */
    static double scale(double v, double[] range, boolean log) {
        if (log) {
            return (Math.log10(v) - Math.log10(range[0])) / (Math.log10(range[1]) - Math.log10(range[0]));
        }
        return (v - range[0]) / (range[1] - range[0]);
    }

    /** Tick positions: each power of ten on a log axis, else about five round numbers. */
    static List<Double> ticks(double[] range, boolean log) {
        List<Double> ticks = new ArrayList<>();
        if (log) {
            for (double t = range[0]; t <= range[1] * 1.0001; t *= 10) {
                ticks.add(t);
            }
            return ticks;
        }
        double span = range[1] - range[0];
        double raw = span / 5;
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = raw / magnitude >= 5 ? 5 * magnitude : raw / magnitude >= 2 ? 2 * magnitude : magnitude;
        for (double t = Math.ceil(range[0] / step) * step; t <= range[1] + step * 1e-9; t += step) {
            ticks.add(Math.abs(t) < step * 1e-9 ? 0 : t);
        }
        return ticks;
    }

    /** Every whole number in the range. */
    static List<Double> integerTicks(double[] range) {
        List<Double> ticks = new ArrayList<>();
        for (double t = Math.ceil(range[0]); t <= range[1]; t++) {
            ticks.add(t);
        }
        return ticks;
    }

    /** Tick label: 0.01, 1, 250, 1k, 2.5M; no trailing zeros. */
    static String label(double v) {
        double abs = Math.abs(v);
        if (v != 0 && abs < 1) {
            return trim(String.format(Locale.ROOT, "%.3f", v));
        }
        String[] suffixes = {"", "k", "M", "G"};
        int power = 0;
        while (power < 3 && abs >= 1000) {
            abs /= 1000;
            v /= 1000;
            power++;
        }
        return trim(String.format(Locale.ROOT, "%.2f", v)) + suffixes[power];
    }

    private static String trim(String decimal) {
        String t = decimal.contains(".") ? decimal.replaceAll("0+$", "") : decimal;
        return t.endsWith(".") ? t.substring(0, t.length() - 1) : t;
    }
}
