package io.microburst.bench.result;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart drawn as inline SVG, with linear or logarithmic axes, so the report needs no script and no network.
 * Build on one thread, then {@link #render}.
 */
final class SvgChart {
    /**
     * One line of the chart: points in data units, drawn in {@code color}. A ceiling is a reference, not a competitor:
     * drawn thin and dashed, named "ceiling: ..." in the legend, and on a chart with an integer x axis (parallelism) as a
     * horizontal line across the whole plot at its highest value, since it does not depend on the x value.
     */
    record Series(String name, String color, boolean ceiling, List<double[]> points) {
    }

    /** Percentiles shown on a percentile axis (see {@link #percentileY()}). */
    static final double[] PERCENTILE_TICKS = {0, 50, 90, 99, 99.9, 99.99, 99.999};
    /** The highest percentile a percentile axis shows; 100 (the maximum) is drawn there. */
    static final double TOP_PERCENTILE = 99.999;

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
    private boolean percentileY;

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

    /**
     * Makes the y axis a percentile axis: equal steps for 0-90%, 90-99%, 99-99.9% and so on (the position is
     * -log10(1 - p/100)), so the tail of a latency distribution, where p99 and p99.9 live, gets as much room as its body.
     */
    SvgChart percentileY() {
        percentileY = true;
        return this;
    }

    /** Position of percentile {@code p} on a percentile axis: 0 for 0%, 1 for 90%, 2 for 99%, capped at 99.999%. */
    static double percentilePosition(double p) {
        double capped = Math.max(0, Math.min(TOP_PERCENTILE, p));
        return -Math.log10(1 - capped / 100);
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
        if (percentileY) {
            yr = new double[] {0, percentilePosition(TOP_PERCENTILE)};
        } else if (yMinFixed != null) {
            yr = new double[] {yMinFixed, yMaxFixed};
        } else if (!logY) {
            yr[0] = Math.min(0, yr[0]);
        }
        int plotW = width - LEFT - RIGHT;
        int plotH = height - TOP - BOTTOM;
        StringBuilder svg = new StringBuilder();
        // as wide as the page: the browser scales the drawing to the figure's width, keeping its proportions
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100%%\" "
            + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n", width, height));
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
        List<Double> yTicks = new ArrayList<>();
        if (percentileY) {
            for (double p : PERCENTILE_TICKS) {
                yTicks.add(p);
            }
        } else {
            yTicks.addAll(logY ? logTicks(yr) : ticks(yr, false));
        }
        for (double tick : yTicks) {
            double py = TOP + plotH - y(tick, yr) * plotH;
            String text = percentileY ? trim(String.format(Locale.ROOT, "%.3f", tick)) + "%" : label(tick);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>"
                + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT, py, LEFT + plotW, py, LEFT - 4, py + 4,
                Html.escape(text)));
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
            String dash = s.ceiling() ? " stroke-dasharray=\"6,4\"" : "";
            String stroke = s.ceiling() ? "1.2" : "2.2";
            if (s.ceiling() && integerX) {
                double top = points.stream().mapToDouble(p -> p[1]).max().orElseThrow();
                double py = TOP + plotH - y(top, yr) * plotH;
                svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
                    + "stroke-width=\"%s\"%s/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">%s</text>%n", LEFT, py,
                    LEFT + plotW, py, s.color(), stroke, dash, LEFT + plotW - 4, py - 3, s.color(),
                    Html.escape(s.name() + " " + label(top))));
            } else {
                StringBuilder path = new StringBuilder();
                for (double[] p : points) {
                    double px = LEFT + scale(p[0], xr, logX) * plotW;
                    double py = TOP + plotH - y(p[1], yr) * plotH;
                    path.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                    if (!s.ceiling()) {
                        svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>", px, py,
                            s.color()));
                    }
                }
                svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" "
                    + "stroke-width=\"%s\"%s/>%n", path.toString().trim(), s.color(), stroke, dash));
            }
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                + "stroke-width=\"%s\"%s/><text x=\"%d\" y=\"%d\">%s</text>%n", LEFT + plotW + 10, legendY,
                LEFT + plotW + 30, legendY, s.color(), stroke, dash, LEFT + plotW + 35, legendY + 4, Html.escape(s.name())));
            legendY += 16;
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** Position of a y value on the axis, 0 to 1. */
    private double y(double v, double[] yr) {
        return percentileY ? scale(percentilePosition(v), yr, false) : scale(v, yr, logY);
    }

    /** Ticks of a log axis: each power of ten, and 2 and 5 times it when the range spans fewer than three decades. */
    static List<Double> logTicks(double[] range) {
        List<Double> decades = ticks(range, true);
        if (decades.size() > 3) {
            return decades;
        }
        List<Double> ticks = new ArrayList<>();
        for (double d : decades) {
            for (double m : new double[] {1, 2, 5}) {
                if (d * m <= range[1] * 1.0001) {
                    ticks.add(d * m);
                }
            }
        }
        return ticks;
    }

    private List<double[]> usable(Series s) {
        return s.points().stream().filter(p -> Double.isFinite(p[0]) && Double.isFinite(p[1]) && (!logX || p[0] > 0)
            && (!logY || percentileY || p[1] > 0)).toList();
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
