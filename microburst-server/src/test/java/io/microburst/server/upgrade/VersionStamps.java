package io.microburst.server.upgrade;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.storm.task.TopologyContext;

/**
 * What a measured topology's spout saw, version by version: each version (a topology id) gets the next index, and per
 * index the time of its first and last ack. Shared by the spouts of every version through static state (the server
 * loads their classes from the test's class path). Any thread; a version's slots are written by its one spout task.
 */
final class VersionStamps {
    static final Map<String, Integer> VERSIONS = new ConcurrentHashMap<>();
    static final AtomicLongArray FIRST_ACK = new AtomicLongArray(256);
    static final AtomicLongArray LAST_ACK = new AtomicLongArray(256);
    /** Message ids (or batch ids) acked, by any version. */
    static final Set<Object> ACKED = ConcurrentHashMap.newKeySet();

    private VersionStamps() {
    }

    static void reset() {
        VERSIONS.clear();
        ACKED.clear();
        for (int i = 0; i < FIRST_ACK.length(); i++) {
            FIRST_ACK.set(i, 0);
            LAST_ACK.set(i, 0);
        }
    }

    /** The index of the version {@code context} belongs to. */
    static int version(TopologyContext context) {
        synchronized (VERSIONS) {
            return VERSIONS.computeIfAbsent(context.getStormId(), id -> VERSIONS.size());
        }
    }

    static void acked(int version, Object id) {
        long now = System.nanoTime();
        FIRST_ACK.compareAndSet(version, 0, now);
        LAST_ACK.set(version, now);
        ACKED.add(id);
    }

    /** Nanoseconds from version {@code old}'s last ack to version {@code old + 1}'s first. */
    static long gapAfter(int old) {
        return FIRST_ACK.get(old + 1) - LAST_ACK.get(old);
    }
}
