package io.microburst.metrics;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Past copies of every task's counters, so that statistics can be given for Storm's windows (the last 10 minutes,
 * 3 hours and day) as well as all-time. Copies are kept at a resolution that grows with the window: every 30 s for
 * the 10-minute window, every 10 minutes for 3 hours, every hour for a day, so a window's figure is exact to within
 * that resolution. Thread-safe.
 */
public final class StatsHistory {
    /** Window lengths, in seconds, as Storm names them. */
    public static final int[] WINDOWS_SECS = {600, 10_800, 86_400};
    /** How often {@link #record} should be called. */
    public static final long RECORD_EVERY_MS = 30_000;
    private static final long[] TIER_PERIOD_MS = {30_000, 600_000, 3_600_000};

    private record Copy(long atMillis, TaskStats stats) {
    }

    private final Map<Integer, Deque<Copy>>[] tiers;
    private final long[] lastRecorded = new long[TIER_PERIOD_MS.length];

    @SuppressWarnings("unchecked")
    public StatsHistory() {
        tiers = new Map[TIER_PERIOD_MS.length];
        for (int t = 0; t < tiers.length; t++) {
            tiers[t] = new HashMap<>();
            lastRecorded[t] = Long.MIN_VALUE;
        }
    }

    /** Keeps a copy of each task's counters as of {@code nowMillis} in every tier that is due. */
    public synchronized void record(long nowMillis, Collection<TaskStats> tasks) {
        for (int t = 0; t < tiers.length; t++) {
            if (lastRecorded[t] != Long.MIN_VALUE && nowMillis - lastRecorded[t] < TIER_PERIOD_MS[t] - 1_000) {
                continue;
            }
            lastRecorded[t] = nowMillis;
            long keepMs = WINDOWS_SECS[t] * 1000L + TIER_PERIOD_MS[t];
            for (TaskStats s : tasks) {
                Deque<Copy> copies = tiers[t].computeIfAbsent(s.taskId(), k -> new ArrayDeque<>());
                copies.addLast(new Copy(nowMillis, s.copy()));
                while (!copies.isEmpty() && nowMillis - copies.peekFirst().atMillis() > keepMs) {
                    copies.removeFirst();
                }
            }
        }
    }

    /**
     * The counters of a task as they were at the start of the window ending now: the newest copy taken no later
     * than that, or null when the task is younger than the window (its all-time counts are the window's counts).
     */
    public synchronized TaskStats baseline(int taskId, int window, long nowMillis) {
        Deque<Copy> copies = tiers[window].get(taskId);
        if (copies == null) {
            return null;
        }
        long start = nowMillis - WINDOWS_SECS[window] * 1000L;
        TaskStats best = null;
        for (Iterator<Copy> it = copies.iterator(); it.hasNext();) {
            Copy c = it.next();
            if (c.atMillis() > start) {
                break;
            }
            best = c.stats();
        }
        return best;
    }

    /** Forgets everything (the tasks were replaced, as after a rebalance). */
    public synchronized void clear() {
        for (Map<Integer, Deque<Copy>> tier : tiers) {
            tier.clear();
        }
        java.util.Arrays.fill(lastRecorded, Long.MIN_VALUE);
    }
}
