package io.microburst.server;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The pool that runs a Thrift service's calls ({@link BoundTransportPlugin}): an idle worker takes the next call before
 * a new one is started, at most {@code threads} run at once, up to {@code queueSize} more calls wait, and a worker idle
 * for {@value #IDLE_SECS} s ends (a call arriving while the previous one's worker is still on its way back finds no
 * idle worker and starts one, so a client's steady calls may hold a few). A plain {@code ThreadPoolExecutor} with as many
 * core threads as its maximum starts a new thread for every call until it holds the maximum (64 for Nimbus) and keeps
 * them all for good, which showed as a server's thread count growing with each submission. Workers are named
 * {@code microburst-SERVICE-thrift-N}.
 *
 * <p>Touched by the service's Thrift selector thread (which hands calls in) and by the workers themselves.
 */
final class ThriftWorkers {
    static final long IDLE_SECS = 5;

    private ThriftWorkers() {
    }

    /** A pool for the service named {@code service} (as in {@code nimbus}, {@code drpc}); no queue bound if null. */
    static ExecutorService create(String service, int threads, Integer queueSize) {
        HandOffQueue queue = new HandOffQueue(queueSize == null ? Integer.MAX_VALUE : queueSize);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(0, Math.max(1, threads), IDLE_SECS, TimeUnit.SECONDS, queue,
            named(service));
        pool.setRejectedExecutionHandler((call, executor) -> {
            if (executor.isShutdown() || !queue.enqueue(call)) {
                throw new RejectedExecutionException("the " + service + " Thrift service is shut down or has "
                    + queue.bound + " calls waiting already");
            }
        });
        return pool;
    }

    private static ThreadFactory named(String service) {
        AtomicInteger count = new AtomicInteger();
        return call -> {
            Thread thread = new Thread(call, "microburst-" + service + "-thrift-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * Offers a call only to a worker waiting idle, so the pool starts a new worker (up to its maximum) when none is;
     * calls arriving while all workers are busy are queued by the pool's rejection handler, up to the bound.
     */
    private static final class HandOffQueue extends LinkedTransferQueue<Runnable> {
        private final int bound;

        HandOffQueue(int bound) {
            this.bound = bound;
        }

        @Override
        public boolean offer(Runnable call) {
            return tryTransfer(call);
        }

        boolean enqueue(Runnable call) {
            return size() < bound && super.offer(call);
        }
    }
}
