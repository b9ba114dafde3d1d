package io.microburst.bench.topology;

/**
 * A steady rate: how many tuples a source owes at a given time, {@code perSecond} a second since its first call. Confined
 * to one thread.
 *
 * <p>A caller gets at most {@code maxPerCall} per call, so a source still returns from its call often. A late caller
 * catches up on what it owes, but never on more than {@link #MAX_BACKLOG_NANOS} of schedule: after a long stall the
 * schedule restarts from now instead of flooding the pipeline.
 */
public final class RatePacer {
    /** Most schedule a stalled caller may catch up on. */
    public static final long MAX_BACKLOG_NANOS = 100_000_000L;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long perSecond;
    private final int maxPerCall;
    private long startNanos;
    private long granted;
    private boolean started;

    public RatePacer(long perSecond, int maxPerCall) {
        if (perSecond <= 0 || maxPerCall <= 0) {
            throw new IllegalArgumentException("rate and maxPerCall must be positive: " + perSecond + ", " + maxPerCall);
        }
        this.perSecond = perSecond;
        this.maxPerCall = maxPerCall;
    }

    /** How many tuples to emit at {@code nowNanos}: what the schedule owes by then, at most {@code maxPerCall}. */
    public int due(long nowNanos) {
        if (!started) {
            started = true;
            startNanos = nowNanos;
            granted = 0;
        }
        long owed = scheduled(nowNanos - startNanos) - granted;
        if (owed > scheduled(MAX_BACKLOG_NANOS)) {
            startNanos = nowNanos; // a long stall: restart the schedule from now
            granted = 0;
            owed = 0;
        }
        int n = (int) Math.min(owed, maxPerCall);
        granted += n;
        return Math.max(n, 0);
    }

    private long scheduled(long elapsedNanos) {
        // two steps, so that hours at millions a second cannot overflow
        long seconds = elapsedNanos / NANOS_PER_SECOND;
        long rest = elapsedNanos % NANOS_PER_SECOND;
        return seconds * perSecond + rest * perSecond / NANOS_PER_SECOND;
    }
}
