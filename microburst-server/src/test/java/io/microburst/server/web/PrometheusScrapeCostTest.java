package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a {@code /metrics} scrape costs the topologies beside it: it must not stop every thread of the process at a
 * safepoint to look for deadlocks (the Prometheus client's deadlock gauges do, 20 to 60 ms each under load, all
 * executors standing still), and scrapes in the same second share one answer.
 */
class PrometheusScrapeCostTest {
    @TempDir
    Path dir;

    @Test
    void scrapesLookForDeadlocksAtMostOnceAMinute() throws Exception {
        AtomicLong now = new AtomicLong();
        long step = TimeUnit.MILLISECONDS.toNanos(PrometheusMetrics.SHARED_MILLIS);
        try (MicroburstCluster cluster = new MicroburstCluster(); Recording recording = new Recording()) {
            PrometheusMetrics metrics = new PrometheusMetrics(cluster, now::get);
            metrics.answer(); // loads the collectors' classes outside the recording
            recording.enable("jdk.ExecuteVMOperation").withThreshold(Duration.ZERO);
            recording.start();
            for (int i = 0; i < 5; i++) {
                now.addAndGet(step); // a new scrape each time, a second apart
                metrics.answer();
            }
            recording.stop();
            Path file = dir.resolve("scrapes.jfr");
            recording.dump(file);
            long deadlockSearches = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("jdk.ExecuteVMOperation"))
                .map(e -> e.getString("operation")).filter(op -> op.contains("Deadlock")).count();
            assertEquals(0, deadlockSearches, "safepoints to look for deadlocks in 5 scrapes after the first");
        }
    }

    @Test
    void scrapesWithinASecondShareOneAnswerAndTheDeadlockGaugesStay() throws Exception {
        AtomicLong now = new AtomicLong();
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            PrometheusMetrics metrics = new PrometheusMetrics(cluster, now::get);
            byte[] first = metrics.answer();
            now.addAndGet(TimeUnit.MILLISECONDS.toNanos(PrometheusMetrics.SHARED_MILLIS - 1));
            assertSame(first, metrics.answer());
            now.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));
            byte[] second = metrics.answer();
            assertNotSame(first, second);
            String text = new String(second, StandardCharsets.UTF_8);
            assertTrue(text.contains("\njvm_threads_deadlocked 0"), text);
            assertTrue(text.contains("\njvm_threads_deadlocked_monitor 0"), text);
            assertTrue(text.contains("\njvm_threads_current "), text);
            assertArrayEquals(second, metrics.answer());
        }
    }
}
