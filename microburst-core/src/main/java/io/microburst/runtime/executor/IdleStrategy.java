package io.microburst.runtime.executor;

import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import io.microburst.runtime.task.Inbox;
import io.microburst.runtime.task.Outbox;
import io.microburst.runtime.task.SpoutTask;
import io.microburst.runtime.task.Switchboard;
import org.apache.storm.policy.IWaitStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an executor does on a turn that found no work: spin, then yield, then park, with the spouts' own wait strategy
 * deciding when they were polled and emitted nothing (Storm's {@code topology.spout.wait.strategy}, see
 * {@link SpoutWait}). Producers and mail unpark a parked executor, so a park only bounds how late a poll of the spouts
 * or a stop is seen. Linux sleeps a parked thread at least its timer slack (50 µs), and a thread that slept long wakes
 * slowly; the figures behind each constant are in docs/performance/2026-11-23-queues-and-parking.md.
 *
 * <p>Threading: the executor's own thread only; {@link #parks()} may be read by another thread once it has stopped.
 */
final class IdleStrategy {
    private static final Logger LOG = LoggerFactory.getLogger(IdleStrategy.class);
    private static final int SPIN_TURNS = 64;
    private static final int YIELD_TURNS = 8;
    /**
     * The first park. Linux lets a parked thread sleep at least its timer slack (50 µs by default) whatever it asks for,
     * so shorter parks would only add wake-ups: each costs CPU, and none brings a tuple sooner (producers unpark
     * their consumers, and mail unparks its executor).
     */
    static final long MIN_PARK_NANOS = 50_000;
    static final long SPOUT_MAX_PARK_NANOS = 1_000_000;
    /**
     * How long an executor without spouts parks at a time while it is warm: for its first {@link #WARM_PARKS} parks
     * after work, unless every spout of the topology waits out its wait strategy; then it parks until the first of
     * them is polled next, since nothing new enters the topology before that, and a tuple from anywhere else still
     * unparks it. A thread that has slept long answers an unpark slowly: on this project's benchmark machine (a virtual
     * one) a bolt unparked out of a 50 ms park ran 297-345 µs after its tuple at p99, and one that woke itself at least
     * every 175 µs (this park plus Linux's 50 µs timer slack) ran 16-26 µs after it. The extra wake-ups cost about 1% of
     * a core while a stream of 1 tuple per millisecond lasts.
     */
    static final long WARM_PARK_NANOS = 125_000;
    /**
     * Parks an executor without spouts stays warm for after work: about 11 ms at {@link #WARM_PARK_NANOS}, so that a
     * stream of 100 tuples a second or more keeps its bolts warm, and a bolt that hears from nobody backs off soon.
     */
    static final int WARM_PARKS = 64;
    static final long BOLT_MAX_PARK_NANOS = 50_000_000;
    /**
     * Idle turns an executor whose batches wait for a full consumer on a cycle yields before it parks. While any does,
     * every spout of the topology pauses, so slices feeding each other both run dry until it hands the batches over:
     * a park (50 µs and the wake-up's delay) stalled both threads each time, and WordCount at parallelism 2 ran slower
     * in the runs where this happened often. A few hundred yields (a few microseconds each) retry as soon as room
     * appears and cover a consumer's usual catching up; one descheduled for longer is waited for with parks as before.
     */
    static final int OVERFLOW_YIELD_TURNS = 256;

    private final Inbox inbox;
    private final Outbox outbox;
    private final Switchboard board;
    private final ClassLoader loader;
    /** The executor's spouts, or an empty array. */
    private final SpoutTask[] spouts;
    /** What to do while the spouts have nothing to emit (Storm's spout wait strategy); null without spouts. */
    private SpoutWait spoutWait;
    /** The counter a user's wait strategy keeps, as Storm keeps it: 0 after a turn that did work. */
    private int spoutWaitCount;
    private int idleTurns;
    /** Written by the executor's thread after each park, read by others (automatic parallelism). */
    private volatile long parkedNanos;
    /** Times this executor parked (its thread only; others read it once it has stopped). */
    private long parks;

    IdleStrategy(Inbox inbox, Outbox outbox, Switchboard board, SpoutTask[] spouts, ClassLoader loader) {
        this.inbox = inbox;
        this.outbox = outbox;
        this.board = board;
        this.spouts = spouts;
        this.loader = loader;
        if (spouts.length > 0) {
            spoutWait = SpoutWait.of(spouts[0].component().conf(), loader, spouts[0].componentId());
        }
    }

    /** A turn did work: the next idle turn starts from spinning again. */
    void workDone() {
        idleTurns = 0;
        spoutWaitCount = 0;
    }

    /**
     * A turn found nothing to do.
     *
     * @param spoutsPolled true when the turn called a spout's nextTuple: the spouts had nothing to emit
     */
    void idle(boolean spoutsPolled) {
        int turns = idleTurns < Integer.MAX_VALUE ? ++idleTurns : idleTurns;
        if (spoutsPolled) {
            spoutIdle(turns - 1);
            return;
        }
        if (turns < SPIN_TURNS) {
            Thread.onSpinWait();
            return;
        }
        if (turns < SPIN_TURNS + YIELD_TURNS) {
            Thread.yield();
            return;
        }
        boolean overflowing = outbox.overflowing();
        if (overflowing && turns < SPIN_TURNS + YIELD_TURNS + OVERFLOW_YIELD_TURNS) {
            Thread.yield();
            return;
        }
        boolean spoutsRunning = spouts.length > 0 && board.spoutsMayRun();
        long max = overflowing ? MIN_PARK_NANOS : spoutsRunning ? SPOUT_MAX_PARK_NANOS : BOLT_MAX_PARK_NANOS;
        int idleParks = turns - SPIN_TURNS - YIELD_TURNS;
        long nanos = spouts.length == 0 && idleParks < WARM_PARKS && !overflowing
            ? warmBoltParkNanos(idleParks, max, board.untilSpoutsPoll())
            : parkNanos(idleParks, spouts.length > 0, max);
        park(nanos);
    }

    /**
     * An idle turn on which the spouts were polled and emitted nothing: the spouts' wait strategy decides, as in Storm
     * (by default, the next poll is a millisecond later). What arrives meanwhile still wakes the executor at once.
     * Turns on which the spouts could not be polled (max spout pending, deactivated, paused) are the other threads'
     * to end: {@link #idle} spins first, so a completion from another thread usually arrives without a park.
     */
    private void spoutIdle(int idleTurns) {
        IWaitStrategy custom = spoutWait.custom();
        if (custom == null) {
            long nanos = spoutWait.parkNanos(idleTurns);
            if (nanos == 0) {
                Thread.onSpinWait();
            } else {
                inbox.setNextPoll(System.nanoTime() + nanos);
                park(nanos);
            }
            return;
        }
        try {
            spoutWaitCount = custom.idle(spoutWaitCount);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // a stop that timed out; the loop sees the stop request
        } catch (RuntimeException e) {
            LOG.error("Executor {}: the spout wait strategy {} failed; using Storm's default from now on", inbox,
                custom.getClass().getName(), e);
            spouts[0].reportError(e);
            spoutWait = SpoutWait.of(Map.of(), loader, spouts[0].componentId());
        }
    }

    /** Parks for up to {@code nanos} unless something arrived; producers and mail unpark it early. */
    private void park(long nanos) {
        inbox.setSleeping(true);
        if (inbox.nothingWaiting()) {
            // parks last 50 µs or more (Linux's timer slack), so two clock reads around one cost nothing that matters
            long before = System.nanoTime();
            LockSupport.parkNanos(inbox, nanos);
            parkedNanos += System.nanoTime() - before;
            parks++;
        }
        inbox.setSleeping(false);
    }

    /**
     * How long an idle executor parks next, after {@code parks} parks since it last found work: an executor with spouts
     * from 50 µs up, doubling; one without spouts {@link #WARM_PARK_NANOS} at a time while warm, then doubling from
     * there. Never longer than {@code max}.
     */
    static long parkNanos(int parks, boolean hasSpouts, long max) {
        if (hasSpouts) {
            return Math.min(max, MIN_PARK_NANOS << Math.min(parks, 20));
        }
        if (parks < WARM_PARKS) {
            return Math.min(max, WARM_PARK_NANOS);
        }
        return Math.min(max, WARM_PARK_NANOS << Math.min(parks - WARM_PARKS + 1, 20));
    }

    /**
     * How long a warm executor without spouts parks, {@code idleParks} parks after work: while every spout waits out
     * its wait strategy ({@code untilSpoutsPoll} > 0: the time until the first of them is polled next, known only for
     * Storm's own strategies), nothing new enters the topology before that poll, so until then; otherwise
     * {@link #WARM_PARK_NANOS}. Never longer than {@code max}.
     */
    static long warmBoltParkNanos(int idleParks, long max, long untilSpoutsPoll) {
        return Math.max(parkNanos(idleParks, false, max), Math.min(max, untilSpoutsPoll));
    }

    /** Nanoseconds spent parked so far. */
    long parkedNanos() {
        return parkedNanos;
    }

    /** Times this executor has parked; read by another thread only once the executor has stopped. */
    long parks() {
        return parks;
    }
}
