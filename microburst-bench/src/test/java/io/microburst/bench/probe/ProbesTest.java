package io.microburst.bench.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.HdrHistogram.SingleWriterRecorder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ProbesTest {
    @AfterEach
    void reset() {
        Probes.reset();
    }

    @Test
    void countersSumAndTheFirstTupleIsMarkedOnce() throws Exception {
        Probes.reset();
        TaskCounter a = Probes.newTaskCounter();
        TaskCounter b = Probes.newTaskCounter();
        assertEquals(0, Probes.firstTupleNanos());
        a.add(0);
        assertEquals(0, Probes.firstTupleNanos(), "adding nothing is not a tuple");
        long before = System.nanoTime();
        a.increment();
        long first = Probes.firstTupleNanos();
        assertTrue(first >= before);
        Thread writer = new Thread(() -> b.add(41));
        writer.start();
        writer.join();
        assertEquals(42, Probes.delivered());
        assertEquals(first, Probes.firstTupleNanos());
    }

    @Test
    void latencyTakenCoversOnlyWhatFollowsTheDiscard() {
        Probes.reset();
        SingleWriterRecorder one = Probes.newLatencyRecorder();
        SingleWriterRecorder two = Probes.newLatencyRecorder();
        Probes.record(one, 5_000_000); // warm-up value
        Probes.discardLatency();
        Probes.record(one, 1_000);
        Probes.record(two, 3_000);
        Probes.record(two, -5); // clock oddity: clamped, not an exception
        var merged = Probes.takeLatency();
        assertEquals(3, merged.getTotalCount());
        assertTrue(merged.getMaxValue() < 5_000_000);
        assertEquals(0, Probes.takeLatency().getTotalCount(), "taking resets the interval");
    }

    @Test
    void residentMemoryIsParsedFromProcStatus() {
        assertEquals(123456L * 1024, ProcessStats.parseVmRssBytes(List.of("Name:\tjava", "VmRSS:\t  123456 kB", "Threads: 9")));
        assertEquals(-1, ProcessStats.parseVmRssBytes(List.of("Name:\tjava")));
    }

    @Test
    void processResourcesAreReadable() {
        assertTrue(ProcessStats.liveThreads() > 0);
        assertTrue(ProcessStats.processCpuNanos() != 0);
    }
}
