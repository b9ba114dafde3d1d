package io.microburst.bench.workload;

import io.microburst.bench.topology.RandomDigits;
import io.microburst.bench.topology.RollingWindow;
import io.microburst.bench.topology.SortBolt;

/** Hand-written RollingSort: random messages into a window of 100, sorted once a second. */
final class RollingSortCeiling implements CeilingWork {
    private static final long SORT_PERIOD_NANOS = SortBolt.TICK_SECS * 1_000_000_000L;
    private final RandomDigits digits = new RandomDigits(1); // producer only
    private final RollingWindow window = new RollingWindow(SortBolt.WINDOW); // consumer only
    private long consumed; // consumer only
    private long nextSortNanos = System.nanoTime() + SORT_PERIOD_NANOS; // consumer only
    private long sorted; // consumer only; keeps the sort's result alive

    @Override
    public Object produce() {
        return digits.next();
    }

    @Override
    public int consume(Object item) {
        window.add((String) item);
        // Reading the clock on every item would cost more than the work; a tick a few hundred items late changes nothing.
        if ((++consumed & 255) == 0) {
            long now = System.nanoTime();
            if (now - nextSortNanos >= 0) {
                sorted += window.sorted().length;
                nextSortNanos = now + SORT_PERIOD_NANOS;
            }
        }
        return 1;
    }
}
