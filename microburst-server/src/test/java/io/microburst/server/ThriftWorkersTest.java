package io.microburst.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The Thrift call pool: named workers, at most its size at once, then its queue, then a clear refusal. */
@Timeout(60)
class ThriftWorkersTest {
    @Test
    void runsAtMostItsSizeQueuesUpToItsBoundAndRefusesTheRest() throws Exception {
        ExecutorService pool = ThriftWorkers.create("nimbus", 2, 1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(2);
        List<String> names = new CopyOnWriteArrayList<>();
        Runnable blocked = () -> {
            names.add(Thread.currentThread().getName());
            running.countDown();
            awaitQuietly(release);
        };
        try {
            pool.execute(blocked);
            pool.execute(blocked);
            assertTrue(running.await(30, TimeUnit.SECONDS), "two calls run at once");
            CountDownLatch queuedRan = new CountDownLatch(1);
            pool.execute(queuedRan::countDown);
            RejectedExecutionException full = assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> {
            }));
            assertEquals("the nimbus Thrift service is shut down or has 1 calls waiting already", full.getMessage());
            release.countDown();
            assertTrue(queuedRan.await(30, TimeUnit.SECONDS), "the queued call runs once a worker is free");
            assertTrue(names.stream().allMatch(n -> n.matches("microburst-nimbus-thrift-[12]")), names.toString());
        } finally {
            release.countDown();
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void sequentialCallsReuseAnIdleWorker() throws Exception {
        ExecutorService pool = ThriftWorkers.create("drpc", 64, null);
        List<String> names = new CopyOnWriteArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                CountDownLatch done = new CountDownLatch(1);
                pool.execute(() -> {
                    names.add(Thread.currentThread().getName());
                    done.countDown();
                });
                assertTrue(done.await(30, TimeUnit.SECONDS));
                awaitIdle(pool);
            }
            assertEquals(1, names.stream().distinct().count(), "one worker for calls one after another: " + names);
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    /** Until a worker is back waiting for the next call. */
    private static void awaitIdle(ExecutorService pool) {
        LinkedTransferQueue<Runnable> queue = (LinkedTransferQueue<Runnable>) ((ThreadPoolExecutor) pool).getQueue();
        while (!queue.hasWaitingConsumer()) {
            Thread.onSpinWait();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
