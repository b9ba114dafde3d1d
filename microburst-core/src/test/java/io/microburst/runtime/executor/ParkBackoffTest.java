package io.microburst.runtime.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How long an idle executor parks: bolts stay warm for a while after work, then back off; spouts back off at once. */
class ParkBackoffTest {
    private static final long BOLT_MAX = 50_000_000;
    private static final long SPOUT_MAX = 1_000_000;

    @Test
    void aBoltParksShortlyWhileWarmThenDoublesUpToItsMaximum() {
        for (int parks = 0; parks < IdleStrategy.WARM_PARKS; parks++) {
            assertEquals(IdleStrategy.WARM_PARK_NANOS, IdleStrategy.parkNanos(parks, false, BOLT_MAX), "park " + parks);
        }
        assertEquals(2 * IdleStrategy.WARM_PARK_NANOS, IdleStrategy.parkNanos(IdleStrategy.WARM_PARKS, false, BOLT_MAX));
        assertEquals(4 * IdleStrategy.WARM_PARK_NANOS, IdleStrategy.parkNanos(IdleStrategy.WARM_PARKS + 1, false, BOLT_MAX));
        assertEquals(BOLT_MAX, IdleStrategy.parkNanos(IdleStrategy.WARM_PARKS + 30, false, BOLT_MAX));
        assertEquals(BOLT_MAX, IdleStrategy.parkNanos(Integer.MAX_VALUE, false, BOLT_MAX), "no overflow, however long idle");
    }

    @Test
    void anExecutorWithSpoutsDoublesFrom50MicrosecondsUpToItsMaximum() {
        assertEquals(50_000, IdleStrategy.parkNanos(0, true, SPOUT_MAX));
        assertEquals(100_000, IdleStrategy.parkNanos(1, true, SPOUT_MAX));
        assertEquals(800_000, IdleStrategy.parkNanos(4, true, SPOUT_MAX));
        assertEquals(SPOUT_MAX, IdleStrategy.parkNanos(5, true, SPOUT_MAX));
        assertEquals(SPOUT_MAX, IdleStrategy.parkNanos(Integer.MAX_VALUE, true, SPOUT_MAX));
    }

    @Test
    void aLowerMaximumAlwaysWins() {
        // an executor whose consumer is full parks at most 50 µs, warm or not
        assertEquals(50_000, IdleStrategy.parkNanos(0, false, 50_000));
        assertEquals(50_000, IdleStrategy.parkNanos(3, true, 50_000));
    }

    @Test
    void aWarmBoltParksUntilTheNextPollWhenKnownElseStaysWarm() {
        long max = IdleStrategy.BOLT_MAX_PARK_NANOS;
        // the spouts poll next in 1 ms: a warm bolt parks until then
        assertEquals(1_000_000, IdleStrategy.warmBoltParkNanos(0, max, 1_000_000));
        assertEquals(1_000_000, IdleStrategy.warmBoltParkNanos(IdleStrategy.WARM_PARKS - 1, max, 1_000_000));
        // not known (a user's own wait strategy) or due now: it stays warm, parking a short while at a time
        assertEquals(IdleStrategy.WARM_PARK_NANOS, IdleStrategy.warmBoltParkNanos(0, max, 0));
        assertEquals(IdleStrategy.WARM_PARK_NANOS, IdleStrategy.warmBoltParkNanos(10, max, 0));
        // never past the longest park
        assertEquals(max, IdleStrategy.warmBoltParkNanos(0, max, 10 * max));
    }
}
