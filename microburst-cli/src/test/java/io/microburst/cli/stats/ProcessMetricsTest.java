package io.microburst.cli.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ProcessMetricsTest {

    @Test
    void parsesResidentSetSizeFromProcStatus() {
        List<String> status = List.of("Name:\tjava", "VmPeak:\t 9999 kB", "VmRSS:\t   12345 kB", "Threads:\t 20");

        assertEquals(OptionalLong.of(12345L * 1024), ProcessMetrics.residentBytes(status));
        assertEquals(OptionalLong.empty(), ProcessMetrics.residentBytes(List.of("Name:\tjava")));
        assertEquals(OptionalLong.empty(), ProcessMetrics.residentBytes(List.of("VmRSS:\tlots kB")));
    }

    @Test
    void coresUsedIsCpuOverWallAndUnknownWhenCpuIsUnknown() {
        assertEquals(1.5, ProcessMetrics.coresUsed(3_000, 2_000), 1e-12);
        assertTrue(ProcessMetrics.coresUsed(-1, 2_000) < 0);
        assertTrue(ProcessMetrics.coresUsed(5, 0) < 0);
    }

    @Test
    void countsThreadsStartedAfterTheBaseline() throws InterruptedException {
        Set<Long> baseline = ProcessMetrics.liveThreadIds();
        int before = ProcessMetrics.threadsStartedSince(baseline);
        CountDownLatch release = new CountDownLatch(1);
        Thread extra = new Thread(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "metrics-test-extra");
        extra.start();
        try {
            assertEquals(before + 1, ProcessMetrics.threadsStartedSince(baseline));
        } finally {
            release.countDown();
            extra.join();
        }
    }
}
