package io.microburst.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.storm.metric.api.IMetricsConsumer;
import org.apache.storm.metric.api.IMetricsConsumer.DataPoint;
import org.apache.storm.metric.api.IMetricsConsumer.TaskInfo;
import org.apache.storm.metric.filter.FilterByMetricName;
import org.apache.storm.metric.util.DataPointExpander;
import org.apache.storm.task.IErrorReporter;
import org.apache.storm.task.TopologyContext;
import org.junit.jupiter.api.Test;

/**
 * Each consumer task runs on its own thread behind a bounded queue that drops its oldest batch when full, sees Map
 * values expanded and then names filtered, keeps receiving after it throws, and is cleaned up once, by its own thread,
 * after its last call.
 */
class MetricsConsumersTest {
    private static final String COMPONENT = "__metrics_test.Consumer";
    private static final long LIMIT_SECS = 30;

    /** Records every call; the first call can be held until released. */
    static final class Recording implements IMetricsConsumer {
        final BlockingQueue<TaskInfo> batches = new LinkedBlockingQueue<>();
        final BlockingQueue<List<String>> names = new LinkedBlockingQueue<>();
        final CountDownLatch firstCallEntered = new CountDownLatch(1);
        final CountDownLatch releaseFirstCall;
        final AtomicBoolean inCall = new AtomicBoolean();
        final AtomicReference<Thread> callThread = new AtomicReference<>();
        final AtomicReference<Thread> cleanupThread = new AtomicReference<>();
        final AtomicInteger cleanups = new AtomicInteger();
        volatile boolean cleanupDuringCall;
        volatile boolean throwing;

        Recording(boolean holdFirstCall) {
            releaseFirstCall = new CountDownLatch(holdFirstCall ? 1 : 0);
        }

        @Override
        public void prepare(Map<String, Object> conf, Object arg, TopologyContext context, IErrorReporter errors) {
        }

        @Override
        public void handleDataPoints(TaskInfo taskInfo, Collection<DataPoint> dataPoints) {
            inCall.set(true);
            try {
                callThread.set(Thread.currentThread());
                List<String> seen = new ArrayList<>();
                for (DataPoint p : dataPoints) {
                    seen.add(p.name + "=" + p.value);
                }
                names.add(seen);
                batches.add(taskInfo);
                firstCallEntered.countDown();
                try {
                    releaseFirstCall.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (throwing) {
                    throw new IllegalStateException("refused batch " + taskInfo.timestamp);
                }
            } finally {
                inCall.set(false);
            }
        }

        @Override
        public void cleanup() {
            cleanupDuringCall |= inCall.get();
            cleanupThread.set(Thread.currentThread());
            cleanups.incrementAndGet();
        }
    }

    private static MetricsConsumers.Settings settings(int maxRetained, List<String> whitelist, List<String> blacklist,
                                                      boolean expand, String separator) {
        return new MetricsConsumers.Settings(maxRetained, new FilterByMetricName(whitelist, blacklist),
            new DataPointExpander(expand, separator));
    }

    private static MetricsConsumers.Settings plain(int maxRetained) {
        return settings(maxRetained, null, null, false, ".");
    }

    private static TaskInfo batch(long timestamp) {
        return new TaskInfo("localhost", 6700, "metered", 3, timestamp, 1);
    }

    private static MetricsConsumers consumers(Map<String, List<Throwable>> errors) {
        return new MetricsConsumers((component, task, error) -> {
            synchronized (errors) {
                errors.computeIfAbsent(component + ":" + task, k -> new ArrayList<>()).add(error);
            }
        }, "test-", MetricsConsumersTest.class.getClassLoader());
    }

    private static <T> T next(BlockingQueue<T> queue, String what) throws InterruptedException {
        T value = queue.poll(LIMIT_SECS, TimeUnit.SECONDS);
        assertNotNull(value, "no " + what + " within " + LIMIT_SECS + " s");
        return value;
    }

    @Test
    void aFullQueueDropsItsOldestBatchAndTheProducerNeverWaits() throws Exception {
        Recording consumer = new Recording(true);
        MetricsConsumers consumers = consumers(new TreeMap<>());
        consumers.add(COMPONENT, 7, consumer, plain(2));
        consumers.start();
        consumers.deliver(batch(1), List.of(new DataPoint("m", 1)));
        assertTrue(consumer.firstCallEntered.await(LIMIT_SECS, TimeUnit.SECONDS), "first batch never delivered");
        // the consumer is held inside its first call: these return at once, and only the 2 newest stay queued
        for (long t = 2; t <= 5; t++) {
            consumers.deliver(batch(t), List.of(new DataPoint("m", t)));
        }
        consumer.releaseFirstCall.countDown();
        List<Long> delivered = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            delivered.add(next(consumer.batches, "batch").timestamp);
        }
        consumers.stop(10_000);
        assertEquals(List.of(1L, 4L, 5L), delivered);
        assertTrue(consumer.batches.isEmpty(), "delivered more: " + consumer.batches);
    }

    @Test
    void eachTaskHasItsOwnNamedThreadAndIsCleanedUpOnceAfterItsLastCall() throws Exception {
        Recording held = new Recording(true);
        Recording other = new Recording(false);
        MetricsConsumers consumers = consumers(new TreeMap<>());
        consumers.add(COMPONENT, 7, held, plain(100));
        consumers.add(COMPONENT + "#2", 8, other, plain(100));
        consumers.start();
        consumers.deliver(batch(1), List.of(new DataPoint("m", 1)));
        assertTrue(held.firstCallEntered.await(LIMIT_SECS, TimeUnit.SECONDS), "first batch never delivered");
        next(other.batches, "batch of the second consumer");
        // the held consumer is inside its call: the stop interrupts it, and it cleans up only once that call is over
        consumers.stop(10_000);
        consumers.deliver(batch(2), List.of(new DataPoint("m", 2)));

        for (Recording r : List.of(held, other)) {
            assertEquals(1, r.cleanups.get(), "cleanup calls");
            assertFalse(r.cleanupDuringCall, "cleanup while handleDataPoints ran");
            assertSame(r.callThread.get(), r.cleanupThread.get(), "cleanup on the consumer's thread");
            assertNotEquals(Thread.currentThread(), r.callThread.get());
            assertTrue(r.callThread.get().isDaemon());
            assertFalse(r.callThread.get().isAlive(), "thread still running after stop");
        }
        assertEquals("test-" + COMPONENT + "-task-7", held.callThread.get().getName());
        assertEquals("test-" + COMPONENT + "#2-task-8", other.callThread.get().getName());
        assertEquals(1, held.batches.size() + other.batches.size(), "a batch delivered after the stop");
    }

    @Test
    void aConsumerThatThrowsIsReportedAndKeepsReceiving() throws Exception {
        Recording consumer = new Recording(false);
        consumer.throwing = true;
        Map<String, List<Throwable>> errors = new TreeMap<>();
        MetricsConsumers consumers = consumers(errors);
        consumers.add(COMPONENT, 7, consumer, plain(100));
        consumers.start();
        consumers.deliver(batch(1), List.of(new DataPoint("m", 1)));
        consumers.deliver(batch(2), List.of(new DataPoint("m", 2)));
        assertEquals(1, next(consumer.batches, "first batch").timestamp);
        assertEquals(2, next(consumer.batches, "second batch").timestamp);
        consumers.stop(10_000);
        synchronized (errors) {
            List<Throwable> reported = errors.get(COMPONENT + ":7");
            assertNotNull(reported, "errors: " + errors);
            assertEquals(List.of("refused batch 1", "refused batch 2"),
                reported.stream().map(Throwable::getMessage).toList());
        }
        assertEquals(1, consumer.cleanups.get());
    }

    @Test
    void mapValuesAreExpandedBeforeTheNamesAreFiltered() throws Exception {
        Recording expanded = new Recording(false);
        Recording blacklisted = new Recording(false);
        Recording unexpanded = new Recording(false);
        MetricsConsumers consumers = consumers(new TreeMap<>());
        // "^m/b$" only matches a name the expansion makes
        consumers.add(COMPONENT, 7, expanded, settings(100, List.of("^m/b$"), null, true, "/"));
        consumers.add(COMPONENT + "#2", 8, blacklisted, settings(100, null, List.of("^m"), false, "."));
        consumers.add(COMPONENT + "#3", 9, unexpanded, settings(100, List.of("^m$"), null, false, "."));
        consumers.start();
        Map<String, Long> multi = new TreeMap<>(Map.of("a", 1L, "b", 2L));
        consumers.deliver(batch(1), List.of(new DataPoint("m", multi), new DataPoint("other", 3)));
        assertEquals(List.of("m/b=2"), next(expanded.names, "expanded batch"));
        assertEquals(List.of("other=3"), next(blacklisted.names, "blacklisted batch"));
        assertEquals(List.of("m={a=1, b=2}"), next(unexpanded.names, "unexpanded batch"));
        // a batch the filter empties is still handed over, as Storm's consumer bolt hands it
        consumers.deliver(batch(2), List.of(new DataPoint("other", 4)));
        assertEquals(List.of(), next(expanded.names, "emptied batch"));
        consumers.stop(10_000);
    }
}
