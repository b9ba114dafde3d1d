package io.microburst.runtime.task;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.clock.TurnBudget;
import org.apache.storm.tuple.MessageId;
import org.jctools.queues.MpscArrayQueue;

/**
 * The sending side of one executor: a batch per consumer executor, filled by its tasks' emits and handed over when
 * full or when the executor runs out of work (smart batching; never on a timer), or at each emit while the calls that
 * emit are slow (see {@link #pace}), the pool of empty batches its
 * consumers give back, and the overflow lists that keep a full consumer on a cycle from blocking.
 *
 * <p>Threading: the executor's own thread only, except {@link #giveBack} (any consumer) and {@link #send} from a thread
 * of the user's own, which hands the tuple straight to the consumer's foreign queue. Tasks hold their outbox directly
 * and call {@link #send} themselves: a fused delivery is one call level, as the JIT's inlining depth requires.
 *
 * <p>Public for the executor loop ({@code runtime.executor}: flushes and overflow retries on its own thread) and the
 * topology ({@code runtime.topology}: placement before the threads start, statistics from any thread). {@link #send}
 * stays package-private: only tasks send.
 */
public final class Outbox {
    /** A consumer's queue takes part batches at each emit until this fraction of its slots is used (1/4). */
    static final int SINGLES_SHARE = 4;
    private final Inbox own;
    private final int index;
    private final Switchboard board;
    private final int batchSize;
    /**
     * How many tuples a batch takes before it is handed over: {@link #batchSize} while the calls that emit are fast,
     * 1 (each emit at once, as Storm's default {@code topology.producer.batch.size}) while they are slow, so a tuple
     * never waits for user code that emitted it and then went on to wait for something else. Set by the phase about
     * to call user code ({@link #pace}); it starts at 1, as nothing is known of the calls yet.
     */
    private int fillLimit = 1;
    /** The owner's local queue, for a tuple to another task of this executor (a self-subscription). */
    private final ArrayDeque<RoutedTuple> local;
    /** Written once before the thread starts, as {@link Inbox#setThread}. */
    private Thread thread;
    /**
     * Full batches this executor produced, given back empty by their consumers for reuse: a one-way stream between
     * executors then allocates no batches in steady state. Bounded by a consumer's queue (at least 64 batches), so a
     * queue's worth of batches coming back fits; a batch that finds it full is left to the collector.
     */
    private final MpscArrayQueue<Batch> freeBatches;
    private Batch[] batches = new Batch[0];
    private int[] dirty = new int[0];
    private boolean[] listed = new boolean[0];
    private int dirtyCount;
    /** Consumers that can feed this executor back (see Switchboard#onCycle): a full queue there never blocks. */
    private boolean[] cycleDest = new boolean[0];
    ArrayDeque<Batch>[] overflow;
    private int overflowing;
    /** Time spent waiting for room in a consumer's full queue; written by the owner thread only (on the slow path). */
    private volatile long backpressureNanos;
    /** Time spent unparking consumers after hand-overs (a system call each); owner thread only. */
    private long wakeNanos;

    @SuppressWarnings("unchecked")
    public Outbox(Inbox own, Switchboard board, int batchSize) {
        this.own = own;
        this.index = own.index;
        this.board = board;
        this.batchSize = batchSize;
        this.local = own.local;
        this.freeBatches = new MpscArrayQueue<>(Math.max(64, own.batches.capacity()));
        this.overflow = new ArrayDeque[0];
    }

    public void setThread(Thread t) {
        thread = t;
    }

    /**
     * Whether a sampled execute is being timed on this executor's thread. A task it calls fused then takes its own due
     * sample at its next tuple ({@link Sampling#takesSample}): that sample's clock reads and bookkeeping would count in
     * the outer task's time, which placement reads as the outer task's cost (scoring-p1's moving average, a threshold
     * fused under it, read 116-184 ns a tuple instead of 73-98 in 4 JVMs of 22, and was cut late or never). Executor
     * thread only.
     */
    boolean timing;

    /** Whether a task whose sample is due takes it now: see {@link Sampling#takesSample}. Executor thread. */
    boolean mayTime(int counter, int period) {
        return Sampling.takesSample(timing, counter, period);
    }

    /** A timed execute that started at {@code start} ends: returns its time; the tasks it calls may be timed again. */
    long endTiming(long start) {
        long nanos = System.nanoTime() - start;
        timing = false;
        return nanos;
    }

    /** How many consumers this outbox has room for now (it grows to those it sends to). */
    int consumerSlots() {
        return batches.length;
    }

    public int batchSize() {
        return batchSize;
    }

    /**
     * Sets how the next emits are handed over: {@code slow} 1 (the calls that emit them were slow, see
     * {@link TurnBudget#slowCalls}) hands each emit over at once, 0 fills batches. Arithmetic, no branch: the phases call
     * it every turn. Executor thread.
     */
    void pace(int slow) {
        fillLimit = batchSize - (batchSize - 1) * slow;
    }

    /**
     * Sends a tuple over a link to its target task. On the executor's own thread a fused target executes it at once
     * and a tuple for another executor joins the batch for that consumer; from any other thread (user code emitting
     * from a thread of its own) it is handed over at once.
     */
    void send(Link link, List<Object> values, MessageId id) {
        int i = link.executorIndex;
        if (Thread.currentThread() != thread) {
            board.inbox(i).offer(link.tuple(values, id));
            return;
        }
        if (i == index) {
            BoltTask target = link.target;
            if (target.fused) {
                if (target.oddDepth) { // one copy of the execute code per fused depth's parity: see BoltTask.execute
                    target.executeOdd(link, values, id);
                } else {
                    target.executeEven(link, values, id);
                }
            } else {
                local.add(link.tuple(values, id));
            }
            return;
        }
        if (i >= batches.length) {
            grow(i);
        }
        Batch batch = batches[i];
        if (batch == null) {
            batch = newBatch(i);
            batches[i] = batch;
        }
        if (!listed[i]) {
            listed[i] = true;
            dirty[dirtyCount++] = i;
        }
        int size = batch.add(link, values, id);
        if (size >= fillLimit && (size >= batchSize || singlesFit(board.inbox(i)))) {
            flushTo(i);
        }
    }

    /**
     * Whether a part batch handed over at an emit (the calls are slow, see {@link #pace}) still fits among the batches
     * queued at {@code dest}: its queue holds batches, not tuples, so one-tuple batches would fill its 64 slots with 64
     * tuples and block the producer at a fraction of the queue's size.
     */
    private static boolean singlesFit(Inbox dest) {
        return singlesFit(dest.batches.size(), dest.batches.capacity());
    }

    /**
     * True while a consumer with {@code queued} of {@code capacity} batches waiting takes a part batch at an emit: below
     * a quarter of its queue. Past that it has work for a while, and the tuple joins the open batch, handed over when
     * full or when the producer's call returns, as a fast producer's are. Pure function.
     */
    static boolean singlesFit(int queued, int capacity) {
        return queued < capacity / SINGLES_SHARE;
    }

    /**
     * An empty batch to fill for consumer {@code i}. For a consumer that can feed this executor back (slices feeding
     * each other), a new batch that is used once; otherwise one given back by a consumer, or a new one that will be
     * given back. Between slices, recycled batches cost more than they save: WordCount at parallelism 2 on two cores
     * ran at 14.5-18.1M words/s with them and 17.8-22.6M without, while a one-way stream such as const-null-unfused
     * lost about a fifth of its rate without them (see docs/performance/2026-11-23-slices-and-wordcount.md).
     */
    private Batch newBatch(int i) {
        if (cycleDest[i]) {
            return new Batch(batchSize, null);
        }
        Batch b = freeBatches.relaxedPoll();
        if (b == null) {
            return new Batch(batchSize, this);
        }
        b.clear();
        return b;
    }

    /** A consumer is done with a full batch of ours: reused (cleared first, by {@link #newBatch}) if there is room. Any thread. */
    void giveBack(Batch b) {
        freeBatches.relaxedOffer(b);
    }

    /**
     * Makes room for consumer {@code i}: the arrays start empty and grow, doubling, to the consumers this executor sends
     * to, so that n executors never hold n times n slots between them unless each sends to every other. Whether a new
     * consumer can feed this executor back is asked of the switchboard (a task moved out of a slice can).
     */
    private void grow(int i) {
        int old = batches.length;
        int size = Math.max(i + 1, Math.min(Math.max(8, old * 2), board.executorCount()));
        batches = Arrays.copyOf(batches, size);
        dirty = Arrays.copyOf(dirty, size);
        listed = Arrays.copyOf(listed, size);
        cycleDest = Arrays.copyOf(cycleDest, size);
        overflow = Arrays.copyOf(overflow, size);
        for (int j = old; j < size; j++) {
            cycleDest[j] = board.onCycle(index, j);
        }
    }

    /** Hands every pending batch to its consumer. */
    public void flushAll() {
        if (overflowing > 0) {
            retryOverflow();
        }
        for (int d = 0; d < dirtyCount; d++) {
            int i = dirty[d];
            listed[i] = false;
            flushTo(i);
        }
        dirtyCount = 0;
    }

    /**
     * Hands the batch for consumer {@code i} over, full or not, and takes an empty one in its place, so that every batch
     * goes back to the executor that made it (one kind of batch that did not would be a rarely taken branch in every
     * consumer's drain loop; see docs/performance/2026-11-23-executor-loop-traps.md).
     */
    private void flushTo(int i) {
        Batch out = batches[i];
        if (out.size == 0) {
            // listed this turn, then handed over full by send: flushAll's usual case in a busy stream. Asked here,
            // where send's full batches give the branch its other outcome, rather than in flushAll, where a part batch
            // (a turn cut short) was so rare that the JIT compiled it as a trap
            return;
        }
        batches[i] = newBatch(i);
        ArrayDeque<Batch> waiting = overflow[i];
        if (waiting != null && !waiting.isEmpty()) {
            waiting.add(out); // behind the batches already waiting, in order
            return;
        }
        Inbox dest = board.inbox(i);
        if (!dest.batches.offer(out) && !awaitRoom(dest, out, i)) {
            return;
        }
        if (dest.sleeping()) {
            wakeTimed(dest);
        }
    }

    /** Unparks a parked consumer, timing the system call for {@link #userClock}. Owner thread. */
    private void wakeTimed(Inbox dest) {
        long start = System.nanoTime();
        dest.wake();
        wakeNanos += System.nanoTime() - start;
    }

    /**
     * A clock ({@link System#nanoTime()} based) that stands still while this outbox hands batches over on its slow paths
     * (unparking a consumer, waiting for room in a full queue): the time the calls that emit take themselves, which is
     * what decides whether they are slow ({@link TurnBudget#slowCalls}). Judged on the wall clock, a call that emits a
     * few dozen tuples to a parked consumer looked slow because of the unparks its emits cost once they were handed over
     * one by one, and so stayed slow: each emit a hand-over, a one-tuple batch in the consumer's queue of 64, a full
     * queue, a wait (docs/performance/2026-11-27-moderate-load-latency.md). Owner thread.
     */
    long userClock() {
        return System.nanoTime() - wakeNanos - backpressureNanos;
    }

    /**
     * Offers {@code out} to a full consumer until it takes it (true), or drops or spills it (false): the slow path of
     * {@link #flushTo}, which times the wait as backpressure.
     */
    private boolean awaitRoom(Inbox dest, Batch out, int i) {
        long start = System.nanoTime();
        try {
            int waits = 0;
            do {
                if (board.isHalted()) {
                    board.dropped(out.size);
                    return false;
                }
                if (cycleDest[i]) {
                    spill(i, out);
                    return false;
                }
                if ((waits & 1023) == 1023) {
                    out.touch(0, SharedTimer.stampNanos());
                }
                dest.wake();
                backOff(waits++);
            } while (!dest.batches.offer(out));
            return true;
        } finally {
            backpressureNanos += System.nanoTime() - start;
        }
    }

    /** Nanoseconds this executor has waited for room in its consumers' full queues. Any thread. */
    public long backpressureNanos() {
        return backpressureNanos;
    }

    /** True while batches wait in overflow lists. */
    public boolean overflowing() {
        return overflowing > 0;
    }

    /** Keeps what a full consumer on a cycle could not take; the topology's spouts pause until it has drained. */
    private void spill(int i, Batch batch) {
        ArrayDeque<Batch> q = overflow[i];
        if (q == null) {
            q = new ArrayDeque<>();
            overflow[i] = q;
        }
        if (q.isEmpty()) {
            overflowing++;
            board.overflowChanged(+1);
        }
        q.add(batch);
    }

    public void retryOverflow() {
        for (int i = 0; i < overflow.length; i++) {
            ArrayDeque<Batch> q = overflow[i];
            if (q == null || q.isEmpty()) {
                continue;
            }
            Inbox dest = board.inbox(i);
            Batch b;
            boolean moved = false;
            while ((b = q.peek()) != null && dest.batches.offer(b)) {
                q.poll();
                moved = true;
            }
            if (moved) {
                dest.wake();
            }
            if (q.isEmpty()) {
                overflowing--;
                board.overflowChanged(-1);
            } else if (board.isHalted()) {
                int lost = 0;
                for (Batch left : q) {
                    lost += left.size;
                }
                board.dropped(lost);
                q.clear();
                overflowing--;
                board.overflowChanged(-1);
            }
        }
    }

    /** Stamps the trees of tracked tuples waiting in the overflow lists (STORM-2359). Executor thread. */
    public void touchQueued(long now) {
        if (overflowing > 0) {
            for (ArrayDeque<Batch> q : overflow) {
                if (q != null) {
                    for (Batch b : q) {
                        b.touch(0, now);
                    }
                }
            }
        }
    }

    /** Nanoseconds this executor's thread has waited for room in full queues (backpressure). Any thread reads. */
    public long blockedNanos() {
        return backpressureNanos;
    }

    /** How a producer waits for room in a full queue: spin, yield, then park up to 100 µs. */
    static void backOff(int waits) {
        if (waits < 16) {
            Thread.onSpinWait();
        } else if (waits < 32) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(100_000L, 1_000L << Math.min(waits - 32, 7)));
        }
    }

    @Override
    public String toString() {
        return own.name;
    }
}
