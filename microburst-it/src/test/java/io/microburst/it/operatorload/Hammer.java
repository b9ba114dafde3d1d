package io.microburst.it.operatorload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One operator client: while {@link #on}, a sweep every {@code intervalMillis} (at once when a sweep took longer) of
 * every call of {@link OperatorCalls#sweep} on a random measured topology, then the index page's topology list as the
 * server's index page asks it ({@link OperatorCalls#indexRefresh}). Any failure is kept and fails the measurement.
 * Runs on its own thread.
 */
final class Hammer implements Runnable, AutoCloseable {
    volatile boolean on;
    volatile boolean running = true;
    final AtomicLong calls = new AtomicLong();
    final AtomicLong sweeps = new AtomicLong();
    private final OperatorCalls operator;
    private final List<String> ids;
    private final Map<String, String> components;
    private final long intervalMillis;
    private final Random random;
    private final List<String> failures = new ArrayList<>();

    Hammer(OperatorCalls operator, List<String> ids, Map<String, String> components, long intervalMillis, long seed) {
        this.operator = operator;
        this.ids = ids;
        this.components = components;
        this.intervalMillis = intervalMillis;
        this.random = new Random(seed);
    }

    @Override
    public void run() {
        while (running) {
            long start = System.nanoTime();
            if (on) {
                sweep();
            }
            long left = (on ? intervalMillis : 20) - (System.nanoTime() - start) / 1_000_000;
            if (left > 0) {
                try {
                    Thread.sleep(left); // the operators' pace
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private void sweep() {
        String id = ids.get(random.nextInt(ids.size()));
        for (Map.Entry<String, OperatorCalls.Call> call : operator.sweep(id, components.get(id)).entrySet()) {
            try {
                call.getValue().run();
                calls.incrementAndGet();
            } catch (Exception e) {
                fail(call.getKey() + ": " + e);
            }
        }
        try {
            operator.indexRefresh();
            calls.incrementAndGet();
        } catch (Exception e) {
            fail("index refresh: " + e);
        }
        sweeps.incrementAndGet();
    }

    private void fail(String what) {
        synchronized (failures) {
            if (failures.size() < 10) {
                failures.add(what);
            }
        }
    }

    List<String> failures() {
        synchronized (failures) {
            return new ArrayList<>(failures);
        }
    }

    @Override
    public void close() {
        running = false;
        operator.close();
    }
}
