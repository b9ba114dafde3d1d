package io.microburst.it.reliability;

import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a chaos soak shares between its test and its components, which Microburst deserializes per task: the seed, the
 * fault rates, the faults injected by kind, and per run the ids emitted, pending and acked. Components draw their
 * faults from generators seeded from the one seed, so a run's faults follow from the printed seed (thread
 * interleavings aside).
 */
final class Chaos {
    /** Probabilities per call: a user callback or hook throws an exception, or an Error. */
    static volatile double throwRate = 0.0005;
    static volatile double errorRate = 0.0002;
    /** Per tuple, in bolts: fail it, never ack it, ack it twice, execute slowly. */
    static volatile double failRate = 0.003;
    static volatile double dropRate = 0.001;
    static volatile double doubleAckRate = 0.001;
    static volatile double slowRate = 0.001;
    /** Per open or prepare: it throws. */
    static volatile double startThrowRate = 0.05;
    static volatile long seed;

    private static final AtomicLong STREAMS = new AtomicLong();
    private static final Map<String, LongAdder> FAULTS = new ConcurrentHashMap<>();
    private static final Map<String, Run> RUNS = new ConcurrentHashMap<>();

    private Chaos() {
    }

    /** A generator for one component instance, seeded from the run's seed. */
    static Random random() {
        // mixed: java.util.Random's first draws from consecutive seeds are nearly equal
        return new Random(new SplittableRandom(seed * 31 + STREAMS.incrementAndGet()).nextLong());
    }

    static void count(String kind) {
        FAULTS.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    static SortedMap<String, Long> faults() {
        SortedMap<String, Long> out = new TreeMap<>();
        FAULTS.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    static long faultTotal() {
        long n = 0;
        for (LongAdder a : FAULTS.values()) {
            n += a.sum();
        }
        return n;
    }

    static void reset(long newSeed) {
        seed = newSeed;
        FAULTS.clear();
        RUNS.clear();
    }

    /** Throws, at the rates configured, an exception or an Error from {@code where}. */
    static void maybeThrow(Random random, String where) {
        double r = random.nextDouble();
        if (r < throwRate) {
            count(where + " exception");
            throw new IllegalStateException("chaos: injected exception in " + where + " (expected by the test)");
        }
        if (r < throwRate + errorRate) {
            count(where + " error");
            throw new InjectedError("chaos: injected Error in " + where + " (expected by the test)");
        }
    }

    static void maybeThrowAtStart(Random random, String where) {
        if (random.nextDouble() < startThrowRate) {
            count(where + " exception");
            throw new IllegalStateException("chaos: injected exception in " + where + " (expected by the test)");
        }
    }

    static Run run(String name) {
        return RUNS.get(name);
    }

    static Run newRun(String name, int maxIds, int idsPerSecond) {
        Run r = new Run(maxIds, idsPerSecond);
        RUNS.put(name, r);
        return r;
    }

    static void forget() {
        RUNS.clear();
    }

    /** An Error from user code, as a hostile user's bolt would throw. */
    static final class InjectedError extends Error {
        InjectedError(String message) {
            super(message);
        }
    }

    /** The ids of one topology: new ones while emitting is on, at a bounded rate; every one must be acked once. */
    static final class Run {
        final AtomicIntegerArray acks;
        final Set<Long> pending = ConcurrentHashMap.newKeySet();
        final AtomicLong next = new AtomicLong();
        final LongAdder emits = new LongAdder();
        final LongAdder fails = new LongAdder();
        final LongAdder ackCount = new LongAdder();
        final int idsPerSecond;
        final long startNanos = System.nanoTime();
        volatile boolean emitting = true;

        Run(int maxIds, int idsPerSecond) {
            this.acks = new AtomicIntegerArray(maxIds);
            this.idsPerSecond = idsPerSecond;
        }

        /** The next new id, or -1 when none is due yet (rate), emitting is over or the ids are used up. */
        long newId() {
            if (!emitting) {
                return -1;
            }
            long due = (System.nanoTime() - startNanos) / 1_000_000L * idsPerSecond / 1000 + 1;
            long id = next.get();
            if (id >= due || id >= acks.length() || !next.compareAndSet(id, id + 1)) {
                return -1;
            }
            pending.add(id);
            return id;
        }

        void acked(long id) {
            acks.incrementAndGet((int) id);
            ackCount.increment();
            pending.remove(id);
        }

        long ids() {
            return next.get();
        }

        long lost() {
            long n = 0;
            for (int i = 0; i < ids(); i++) {
                n += acks.get(i) == 0 ? 1 : 0;
            }
            return n;
        }

        long ackedMoreThanOnce() {
            long n = 0;
            for (int i = 0; i < ids(); i++) {
                n += acks.get(i) > 1 ? 1 : 0;
            }
            return n;
        }

        long progress() {
            return emits.sum() + fails.sum() + ackCount.sum();
        }
    }
}
