package io.microburst.it.upgrade;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Where the components of {@link KafkaUpgradeSource}'s jars, loaded by the server in a class loader per version, report
 * to the measurement: each version's class loader (weakly), its spout's acks (when, which partition and offset), and
 * each record its counting bolt executed. The class is in a package the server shares with every topology, so the
 * jars' code and the measurement see the same one. Touched by the spout's and the bolt's executor threads of every
 * version and by the measurement's thread; the counters are preallocated so that the bookkeeping does not grow the
 * heap while it is measured.
 */
public final class UpgradeProbe {
    /** The most records or offsets per partition the probe can track. */
    public static final int CAPACITY = 1 << 20;
    public static final int PARTITIONS = 2;

    static final Map<String, WeakReference<ClassLoader>> LOADERS = new ConcurrentHashMap<>();
    static final Map<String, Version> VERSIONS = new ConcurrentHashMap<>();
    /** Spout acks by partition and offset. */
    static final AtomicIntegerArray[] ACKS = {new AtomicIntegerArray(CAPACITY), new AtomicIntegerArray(CAPACITY)};
    /** Executions of the counting bolt by record number. */
    static final AtomicIntegerArray DELIVERIES = new AtomicIntegerArray(CAPACITY);
    /** Executions by the second version's bolt (its own logic ran). */
    static final AtomicLong SECOND_LOGIC = new AtomicLong();

    /** One version's acks: first and last time, how many; and when each {@link Mark} first happened. */
    static final class Version {
        final AtomicLong first = new AtomicLong();
        final AtomicLong last = new AtomicLong();
        final AtomicLong acks = new AtomicLong();
        final AtomicLongArray marks = new AtomicLongArray(Mark.values().length);
    }

    /** Steps of a version's start, each timed at its first occurrence. */
    public enum Mark {
        /** The spout's {@code activate}. */
        ACTIVATED,
        /** The spout's first {@code nextTuple}. */
        POLLED,
        /** The counting bolt's first execute. */
        EXECUTED
    }

    /** Version {@code topologyId} reached {@code mark}: the first time counts. */
    public static void mark(String topologyId, Mark mark) {
        Version v = VERSIONS.computeIfAbsent(topologyId, id -> new Version());
        if (v.marks.get(mark.ordinal()) == 0) {
            v.marks.compareAndSet(mark.ordinal(), 0, System.nanoTime());
        }
    }

    private UpgradeProbe() {
    }

    /** A component of version {@code topologyId} was opened or prepared in {@code loader}. */
    public static void loaded(String topologyId, ClassLoader loader) {
        LOADERS.putIfAbsent(topologyId, new WeakReference<>(loader));
    }

    /** The spout of version {@code topologyId} got the ack of the record at {@code offset} of {@code partition}. */
    public static void acked(String topologyId, int partition, long offset) {
        long now = System.nanoTime();
        Version v = VERSIONS.computeIfAbsent(topologyId, id -> new Version());
        v.first.compareAndSet(0, now);
        v.last.set(now);
        v.acks.incrementAndGet();
        if (partition < PARTITIONS && offset < CAPACITY) {
            ACKS[partition].incrementAndGet((int) offset);
        }
    }

    /** The counting bolt executed record {@code record}; {@code secondLogic} when the second version's bolt did. */
    public static void delivered(long record, boolean secondLogic) {
        if (record < CAPACITY) {
            DELIVERIES.incrementAndGet((int) record);
        }
        if (secondLogic) {
            SECOND_LOGIC.incrementAndGet();
        }
    }

    static long acks(String topologyId) {
        Version v = VERSIONS.get(topologyId);
        return v == null ? 0 : v.acks.get();
    }
}
