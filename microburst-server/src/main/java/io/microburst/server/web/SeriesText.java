package io.microburst.server.web;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Prometheus' text exposition format (0.0.4), written straight into bytes: a family's {@code # HELP} and
 * {@code # TYPE} lines (written with its first sample, so a family without samples is left out, as the client
 * library's writer leaves it out), then samples as a name, a label block made once by {@link #labels} and kept by its
 * owner, and a value written as the client library writes it ({@link Double#toString}, {@code +Inf}, whole counts of
 * bucket lines as integers). Used by one scraping thread at a time.
 */
final class SeriesText {
    private byte[] bytes;
    private int size;
    private String pendingName;
    private String pendingHelp;
    private String pendingType;

    /** @param capacity the bytes expected (the buffer grows beyond) */
    SeriesText(int capacity) {
        this.bytes = new byte[capacity];
    }

    /** Starts a family: its header is written before its first sample. */
    void family(String name, String type, String help) {
        pendingName = name;
        pendingType = type;
        pendingHelp = help;
    }

    /** A sample of the current family: {@code name}, then {@code labels} (from {@link #labels}), then the value. */
    void sample(byte[] name, byte[] labels, double value) {
        sample(name, labels, format(value));
    }

    /** As {@link #sample(byte[], byte[], double)} for a count, written as the same double would be. */
    void sample(byte[] name, byte[] labels, long count) {
        sample(name, labels, count >= 0 && count < 10_000_000
            ? count + ".0" // Double.toString's plain notation below 10^7: the digits and ".0"
            : Double.toString(count));
    }

    /** A sample whose value is already text (a state set's 0 or 1, a bucket's whole count). */
    void sample(byte[] name, byte[] labels, String value) {
        header();
        put(name, 0, name.length);
        put(labels, 0, labels.length);
        put((byte) ' ');
        ascii(value);
        put((byte) '\n');
    }

    /** Sample lines of the current family made earlier by this format (a block a caller kept), written again. */
    void lines(byte[] lines) {
        header();
        put(lines, 0, lines.length);
    }

    /** Whole families in this format made elsewhere (their own header lines): ends the current family. */
    void families(byte[] text) {
        pendingName = null;
        put(text, 0, text.length);
    }

    /** What was written, as the answer to a scrape. */
    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    private void header() {
        if (pendingName == null) {
            return;
        }
        byte[] h = ("# HELP " + pendingName + " " + pendingHelp.replace("\\", "\\\\").replace("\n", "\\n")
            + "\n# TYPE " + pendingName + " " + pendingType + "\n").getBytes(StandardCharsets.UTF_8);
        put(h, 0, h.length);
        pendingName = null;
    }

    /** A value as the client library writes one. */
    static String format(double value) {
        if (value == Double.POSITIVE_INFINITY) {
            return "+Inf";
        }
        return value == Double.NEGATIVE_INFINITY ? "-Inf" : Double.toString(value);
    }

    /**
     * A label block, {@code {a="x",b="y"}} for names and values alternating (each value escaped), or without its
     * closing brace when {@code open} (for bucket lines, which add {@code le}).
     */
    static byte[] labels(boolean open, String... namesAndValues) {
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (i > 0) {
                b.append(',');
            }
            b.append(namesAndValues[i]).append("=\"");
            escape(namesAndValues[i + 1], b);
            b.append('"');
        }
        if (!open) {
            b.append('}');
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A metric name's bytes. */
    static byte[] name(String name) {
        return name.getBytes(StandardCharsets.US_ASCII);
    }

    private static void escape(String value, StringBuilder into) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> into.append("\\\\");
                case '"' -> into.append("\\\"");
                case '\n' -> into.append("\\n");
                default -> into.append(c);
            }
        }
    }

    /** A number's characters (ASCII only). */
    private void ascii(String s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            bytes[size++] = (byte) s.charAt(i);
        }
    }

    private void put(byte b) {
        ensure(1);
        bytes[size++] = b;
    }

    private void put(byte[] b, int from, int length) {
        ensure(length);
        System.arraycopy(b, from, bytes, size, length);
        size += length;
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
