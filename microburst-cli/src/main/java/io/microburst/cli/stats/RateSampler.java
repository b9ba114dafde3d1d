package io.microburst.cli.stats;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns successive counter snapshots into rates: each sample is diffed against the previous one (the first against
 * zero at the start time). A counter that goes down (a restarted executor) counts as no progress, never negative.
 *
 * <p>Not thread-safe: one thread samples.
 */
public final class RateSampler {
    private Map<String, ComponentCounters> previous = new HashMap<>();
    private long previousNanos;

    /** @param startNanos the {@link System#nanoTime()} at which all counters were zero */
    public RateSampler(long startNanos) {
        this.previousNanos = startNanos;
    }

    /** Rates since the previous sample, in the order of {@code counters}. */
    public List<ComponentRate> sample(Map<String, ComponentCounters> counters, long nowNanos) {
        double seconds = Math.max(nowNanos - previousNanos, 1) / 1e9;
        List<ComponentRate> rates = new ArrayList<>(counters.size());
        for (ComponentCounters now : counters.values()) {
            ComponentCounters before = previous.get(now.componentId());
            long emittedBefore = before == null ? 0 : before.emitted();
            long executedBefore = before == null ? 0 : before.executed();
            rates.add(new ComponentRate(now.componentId(), now.kind(), now.executors(), now.emitted(),
                    now.executed(), Math.max(0, now.emitted() - emittedBefore) / seconds,
                    Math.max(0, now.executed() - executedBefore) / seconds));
        }
        previous = new HashMap<>(counters);
        previousNanos = nowNanos;
        return rates;
    }
}
