package io.microburst.bench.result;

import java.util.Locale;

/** Human-readable numbers for the terminal table and the HTML report; "-" for a missing value. Stateless. */
public final class Format {
    /** Shown where there is no value. */
    public static final String MISSING = "-";

    private Format() {
    }

    /** 3.28M, 740k, 512. */
    public static String count(double value) {
        if (!Double.isFinite(value)) {
            return MISSING;
        }
        double abs = Math.abs(value);
        if (abs >= 1e9) {
            return String.format(Locale.ROOT, "%.2fG", value / 1e9);
        }
        if (abs >= 1e6) {
            return String.format(Locale.ROOT, "%.2fM", value / 1e6);
        }
        if (abs >= 1e4) {
            return String.format(Locale.ROOT, "%.1fk", value / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", value);
    }

    /** 2.35x. */
    public static String ratio(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.2fx", value) : MISSING;
    }

    /** 45%. */
    public static String percent(double fraction) {
        return Double.isFinite(fraction) ? String.format(Locale.ROOT, "%.0f%%", fraction * 100) : MISSING;
    }

    /** A latency given in microseconds: 0.3us, 39us, 1.8ms, 2.1s. */
    public static String micros(double micros) {
        if (!Double.isFinite(micros)) {
            return MISSING;
        }
        if (micros >= 1e6) {
            return String.format(Locale.ROOT, "%.1fs", micros / 1e6);
        }
        if (micros >= 1e3) {
            return String.format(Locale.ROOT, "%.1fms", micros / 1e3);
        }
        if (micros >= 10) {
            return String.format(Locale.ROOT, "%.0fus", micros);
        }
        return String.format(Locale.ROOT, "%.1fus", micros);
    }

    /** Bytes as MiB: 562MB. */
    public static String megabytes(double bytes) {
        return Double.isFinite(bytes) && bytes >= 0 ? String.format(Locale.ROOT, "%.0fMB", bytes / (1024 * 1024)) : MISSING;
    }

    /** Milliseconds as seconds: 5.7s, or 12ms below a tenth of a second. */
    public static String millis(double millis) {
        if (!Double.isFinite(millis)) {
            return MISSING;
        }
        return millis >= 100 ? String.format(Locale.ROOT, "%.1fs", millis / 1000) : String.format(Locale.ROOT, "%.0fms", millis);
    }

    /** 1.23 (two decimals). */
    public static String decimal(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.2f", value) : MISSING;
    }
}
