package io.microburst.server.web;

import java.util.concurrent.Callable;
import java.util.function.LongSupplier;

/**
 * A value that is expensive to compute and asked for by many requests at once (a {@code /metrics} answer): computed
 * at most once per interval and handed to every request that comes within it, so that five scrapers or a dashboard in
 * five browser tabs cost the server what one does. A request after the interval computes it again; requests that come
 * while it is being computed wait for that computation instead of starting their own. Thread-safe: any request thread.
 *
 * @param <T> the value, immutable once computed
 */
final class SharedSnapshot<T> {
    private final Callable<T> compute;
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    /** Guarded by this. */
    private T value;
    /** When {@link #value} was computed (start of the computation); guarded by this. */
    private long computedAt;

    /**
     * @param intervalNanos how long a computed value is handed out; 0 computes it for every request
     * @param nanoClock the time, as {@link System#nanoTime}
     */
    SharedSnapshot(Callable<T> compute, long intervalNanos, LongSupplier nanoClock) {
        this.compute = compute;
        this.intervalNanos = intervalNanos;
        this.nanoClock = nanoClock;
    }

    /** The value computed within the interval, or a new one. */
    synchronized T get() throws Exception {
        long now = nanoClock.getAsLong();
        if (value == null || now - computedAt >= intervalNanos) {
            value = compute.call();
            computedAt = now;
        }
        return value;
    }
}
