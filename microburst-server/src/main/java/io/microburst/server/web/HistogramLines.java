package io.microburst.server.web;

import io.microburst.metrics.LatencyHistogram;

/**
 * One task's latency histogram as the lines of a Prometheus classic histogram (a cumulative line per bucket of {@link
 * LatencyBuckets}, then {@code _count} and {@code _sum}), kept between scrapes and made again only when the histogram
 * recorded since ({@link LatencyHistogram#recordedCount}): a task with no new sample costs its scrape a comparison
 * and a copy of bytes, not a walk of its histogram. Used by one scraping thread at a time.
 */
final class HistogramLines {
    private static final String[] LE = new String[LatencyBuckets.BOUNDS_SECONDS.length];

    static {
        for (int i = 0; i < LE.length; i++) {
            LE[i] = ",le=\"" + SeriesText.format(LatencyBuckets.BOUNDS_SECONDS[i]) + "\"}";
        }
    }

    private final byte[] bucket;
    private final byte[] count;
    private final byte[] sum;
    /** Per bucket, the series' labels with its {@code le}. */
    private final byte[][] buckets = new byte[LE.length][];
    private final byte[] labels;
    private LatencyHistogram source;
    private long recorded = -1;
    private byte[] lines;

    /**
     * @param family the histogram's name
     * @param open the series' labels without the closing brace ({@link SeriesText#labels} with {@code open})
     * @param labels the same labels closed
     */
    HistogramLines(String family, byte[] open, byte[] labels) {
        this.bucket = SeriesText.name(family + "_bucket");
        this.count = SeriesText.name(family + "_count");
        this.sum = SeriesText.name(family + "_sum");
        for (int i = 0; i < LE.length; i++) {
            buckets[i] = concat(open, SeriesText.name(LE[i]));
        }
        this.labels = labels;
    }

    /**
     * Brings the lines up to what {@code latencies} holds; true when they were made again (new samples, or a first
     * read). Null latencies (nothing sampled yet) leave no lines.
     */
    boolean update(LatencyHistogram latencies) {
        if (latencies == null) {
            return false;
        }
        long now = latencies.recordedCount();
        if (latencies == source && now == recorded && lines != null) {
            return false;
        }
        LatencyBuckets b = latencies.read(LatencyBuckets::of); // at least `now` samples, walked without a copy
        SeriesText text = new SeriesText(1024);
        long cumulative = 0;
        for (int i = 0; i < LE.length; i++) {
            cumulative += b.counts[i];
            text.sample(bucket, buckets[i], Long.toString(cumulative));
        }
        text.sample(count, labels, Long.toString(b.total));
        text.sample(sum, labels, b.sumSeconds);
        lines = text.toByteArray();
        source = latencies;
        recorded = now;
        return true;
    }

    /** Writes the lines, if any, into the current family of {@code out}. */
    void writeTo(SeriesText out) {
        if (lines != null) {
            out.lines(lines);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
