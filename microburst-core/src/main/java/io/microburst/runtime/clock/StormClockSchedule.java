package io.microburst.runtime.clock;

import java.util.PriorityQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.utils.Time;

/**
 * Timer entries that follow Storm's clock ({@link Time}) while it is simulated: an entry is due once
 * {@code Time.currentTimeMillis()} reaches its time, whoever advanced the clock. Like Storm's own timers, a recurring
 * entry that fires is due again one period after the time it fired at, so a jump of several periods fires it once.
 *
 * <p>Threading: entries are added and cancelled from any thread; {@link #fireDue()} runs on the cluster's timer thread
 * only, so entries fire one at a time, in order of their due time.
 */
final class StormClockSchedule {
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private final PriorityQueue<Entry> queue = new PriorityQueue<>();

    /** Adds an entry due {@code initialDelayMs} from Storm's now; a period of 0 or less fires it once. */
    ScheduledFuture<?> add(long initialDelayMs, long periodMs, Runnable action) {
        Entry e = new Entry(action, Time.currentTimeMillis() + Math.max(0, initialDelayMs), periodMs);
        synchronized (queue) {
            queue.add(e);
        }
        return e;
    }

    /**
     * Fires every entry due at Storm's current time. Does nothing once simulated time is off: Storm's clock then reads
     * the wall clock, which would make every entry due at once.
     */
    void fireDue() {
        while (Time.isSimulating()) {
            long now = Time.currentTimeMillis();
            Entry due;
            synchronized (queue) {
                Entry head = queue.peek();
                if (head == null || head.dueMs > now) {
                    return;
                }
                due = queue.poll();
            }
            if (due.isCancelled()) {
                continue;
            }
            if (due.periodMs <= 0) {
                due.run();
            } else if (due.runPeriod()) {
                due.dueMs = now + due.periodMs;
                synchronized (queue) {
                    queue.add(due);
                }
            }
        }
    }

    /** Number of entries waiting (cancelled ones included until they come due). */
    int size() {
        synchronized (queue) {
            return queue.size();
        }
    }

    private static final class Entry extends FutureTask<Void> implements ScheduledFuture<Void> {
        private final long periodMs;
        private final long sequence = SEQUENCE.incrementAndGet();
        /** Guarded by the queue's lock while queued. */
        private long dueMs;

        Entry(Runnable action, long dueMs, long periodMs) {
            super(action, null);
            this.dueMs = dueMs;
            this.periodMs = periodMs;
        }

        /** Runs a recurring entry's action; false once it is cancelled or its action threw. */
        boolean runPeriod() {
            return runAndReset();
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueMs - Time.currentTimeMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            Entry o = (Entry) other;
            int byTime = Long.compare(dueMs, o.dueMs);
            return byTime != 0 ? byTime : Long.compare(sequence, o.sequence);
        }
    }
}
