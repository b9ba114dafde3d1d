package io.microburst.it.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one test run observed, written by spout and bolt tasks from any thread and read by the test thread.
 * Components are serialized into the topology, so they find their record through {@link Runs} by the run id.
 *
 * <p>Message ids are longs from 0. Ids below the capacity get per-id counts (emits, acks, fails, deliveries and
 * times); larger ids, from endless spouts, only count in the totals.
 */
final class RunRecord {
    private final String id;
    private final int capacity;
    private final AtomicIntegerArray emits;
    private final AtomicIntegerArray acks;
    private final AtomicIntegerArray fails;
    private final AtomicIntegerArray deliveries;
    private final AtomicLongArray lastEmitNanos;
    private final AtomicLongArray firstAckNanos;
    private final AtomicLongArray firstFailNanos;
    private final LongAdder emitted = new LongAdder();
    private final LongAdder acked = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    private final AtomicInteger maxInFlightPerTask = new AtomicInteger();
    private final Queue<String> violations = new ConcurrentLinkedQueue<>();
    private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();
    private final Queue<Long> feed = new ConcurrentLinkedQueue<>();

    RunRecord(String id, int capacity) {
        this.id = id;
        this.capacity = capacity;
        emits = new AtomicIntegerArray(capacity);
        acks = new AtomicIntegerArray(capacity);
        fails = new AtomicIntegerArray(capacity);
        deliveries = new AtomicIntegerArray(capacity);
        lastEmitNanos = new AtomicLongArray(capacity);
        firstAckNanos = new AtomicLongArray(capacity);
        firstFailNanos = new AtomicLongArray(capacity);
    }

    String id() {
        return id;
    }

    int capacity() {
        return capacity;
    }

    void recordEmit(long msgId) {
        emitted.increment();
        if (inRange(msgId)) {
            lastEmitNanos.set((int) msgId, System.nanoTime());
            emits.incrementAndGet((int) msgId);
        }
    }

    void recordAck(long msgId) {
        acked.increment();
        if (inRange(msgId)) {
            firstAckNanos.compareAndSet((int) msgId, 0, System.nanoTime());
            acks.incrementAndGet((int) msgId);
        }
    }

    void recordFail(long msgId) {
        failed.increment();
        if (inRange(msgId)) {
            firstFailNanos.compareAndSet((int) msgId, 0, System.nanoTime());
            fails.incrementAndGet((int) msgId);
        }
    }

    /** A sink bolt saw this sequence number (counts duplicates under replay). */
    void recordDelivery(long seq) {
        delivered.increment();
        if (inRange(seq)) {
            deliveries.incrementAndGet((int) seq);
        }
    }

    void observeInFlight(int inFlightOfOneTask) {
        maxInFlightPerTask.accumulateAndGet(inFlightOfOneTask, Math::max);
    }

    void violation(String what) {
        if (violations.size() < 100) {
            violations.add(what);
        }
    }

    void increment(String counter) {
        counters.computeIfAbsent(counter, k -> new LongAdder()).increment();
    }

    void add(String counter, long amount) {
        counters.computeIfAbsent(counter, k -> new LongAdder()).add(amount);
    }

    long count(String counter) {
        LongAdder adder = counters.get(counter);
        return adder == null ? 0 : adder.sum();
    }

    /** Queues message ids for a {@link ScriptedSpout} to emit. */
    void feed(long... msgIds) {
        for (long msgId : msgIds) {
            feed.add(msgId);
        }
    }

    Long nextFed() {
        return feed.poll();
    }

    long emitted() {
        return emitted.sum();
    }

    long acked() {
        return acked.sum();
    }

    long failed() {
        return failed.sum();
    }

    long delivered() {
        return delivered.sum();
    }

    /** Emitted tracked tuples whose tree has not yet been acked or failed, as the spouts see it. */
    long pending() {
        return emitted() - acked() - failed();
    }

    int maxInFlightPerTask() {
        return maxInFlightPerTask.get();
    }

    List<String> violations() {
        return new ArrayList<>(violations);
    }

    int emitsOf(long msgId) {
        return emits.get((int) msgId);
    }

    int acksOf(long msgId) {
        return acks.get((int) msgId);
    }

    int failsOf(long msgId) {
        return fails.get((int) msgId);
    }

    int deliveriesOf(long seq) {
        return deliveries.get((int) seq);
    }

    /** Milliseconds from the latest emit of this id to its first fail, or -1 if it never failed. */
    long failDelayMillis(long msgId) {
        long failedAt = firstFailNanos.get((int) msgId);
        return failedAt == 0 ? -1 : (failedAt - lastEmitNanos.get((int) msgId)) / 1_000_000;
    }

    /** Milliseconds from the latest emit of this id to its first ack, or -1 if it was never acked. */
    long ackDelayMillis(long msgId) {
        long ackedAt = firstAckNanos.get((int) msgId);
        return ackedAt == 0 ? -1 : (ackedAt - lastEmitNanos.get((int) msgId)) / 1_000_000;
    }

    SortedSet<Long> ackedIds() {
        return idsWhere(acks);
    }

    SortedSet<Long> failedIds() {
        return idsWhere(fails);
    }

    private SortedSet<Long> idsWhere(AtomicIntegerArray counts) {
        SortedSet<Long> ids = new TreeSet<>();
        for (int i = 0; i < capacity; i++) {
            if (counts.get(i) > 0) {
                ids.add((long) i);
            }
        }
        return ids;
    }

    private boolean inRange(long msgId) {
        return msgId >= 0 && msgId < capacity;
    }
}
