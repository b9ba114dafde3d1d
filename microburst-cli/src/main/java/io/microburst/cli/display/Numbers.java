package io.microburst.cli.display;

import java.util.Locale;

/** Short human-readable numbers for tables: 950, 12.3k, 4.56M, 1.20G. Locale-independent. */
public final class Numbers {
    private Numbers() {
    }

    /** Three significant digits with a k/M/G suffix from a thousand up; whole numbers below. */
    public static String human(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "-";
        }
        double abs = Math.abs(value);
        if (abs < 1_000) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        String[] suffixes = {"k", "M", "G", "T"};
        double scaled = value / 1_000;
        int index = 0;
        while (Math.abs(scaled) >= 999.5 && index < suffixes.length - 1) {
            scaled /= 1_000;
            index++;
        }
        double absScaled = Math.abs(scaled);
        String pattern = absScaled >= 99.95 ? "%.0f%s" : absScaled >= 9.995 ? "%.1f%s" : "%.2f%s";
        return String.format(Locale.ROOT, pattern, scaled, suffixes[index]);
    }

    /** Bytes as MiB with one decimal. */
    public static String mebibytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
