package io.microburst.bench.topology;

/**
 * A fixed schedule of bursts: {@code perTick} tuples once every millisecond. Confined to one thread.
 *
 * <p>A late caller gets the missed bursts one per call (so the load stays as specified), but never more than
 * {@link #MAX_BACKLOG_NANOS} of them: after a long stall the schedule restarts from now instead of flooding the pipeline.
 */
public final class Pacer {
    /** Period between bursts. */
    public static final long PERIOD_NANOS = 1_000_000L;
    /** Most schedule a stalled caller may catch up on. */
    public static final long MAX_BACKLOG_NANOS = 100 * PERIOD_NANOS;

    private final int perTick;
    private long nextDue = Long.MIN_VALUE;

    public Pacer(int perTick) {
        if (perTick <= 0) {
            throw new IllegalArgumentException("perTick must be positive: " + perTick);
        }
        this.perTick = perTick;
    }

    /** How many tuples to emit at {@code nowNanos}: {@code perTick} when a burst is due, else 0. */
    public int due(long nowNanos) {
        if (nextDue == Long.MIN_VALUE || nowNanos - nextDue > MAX_BACKLOG_NANOS) {
            nextDue = nowNanos;
        }
        if (nowNanos - nextDue < 0) {
            return 0;
        }
        nextDue += PERIOD_NANOS;
        return perTick;
    }
}
