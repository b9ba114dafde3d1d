package io.microburst.it.reliability;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/** Heap in use right after a full collection, in megabytes. */
final class HeapSampler {
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private HeapSampler() {
    }

    static long usedAfterGcMb() {
        // Two collections: the first may only move objects with finalizers or soft references along.
        System.gc();
        System.gc();
        return MEMORY.getHeapMemoryUsage().getUsed() / (1024 * 1024);
    }
}
