package io.microburst.bench.runtime;

/**
 * How a ceiling thread waits when it has nothing to do: spin a little (a hand-off arriving within a few hundred
 * nanoseconds costs nothing), then yield the core (on a small shared machine a thread that only spins slows the very
 * thread it waits for). Never parks: waking a parked thread takes tens of microseconds, which a ceiling must not pay.
 * Confined to one thread.
 */
final class SpinThenYield {
    static final int SPINS = 100;
    private int idleRounds;

    /** Waits once; call after each attempt that found no work. */
    void idle() {
        if (idleRounds < SPINS) {
            idleRounds++;
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }

    /** Call after each attempt that found work. */
    void reset() {
        idleRounds = 0;
    }
}
