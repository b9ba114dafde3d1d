package io.microburst.bench.runtime;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.probe.TaskCounter;
import io.microburst.bench.workload.CeilingWork;

/**
 * The fusion ceiling: one thread calls the spout's work and hands each item straight to the bolts' work, with no queue and
 * no runtime in between. Spins, then yields, when a paced source has nothing due.
 */
final class LoopCeiling implements Deployment {
    private static final long JOIN_MILLIS = 5_000;
    private final Thread thread;
    private volatile boolean running = true;

    private LoopCeiling(CeilingWork work) {
        thread = new Thread(() -> run(work), "ceiling-loop");
        thread.setDaemon(true);
    }

    static LoopCeiling start(CeilingWork work) {
        LoopCeiling ceiling = new LoopCeiling(work);
        ceiling.thread.start();
        return ceiling;
    }

    private void run(CeilingWork work) {
        TaskCounter delivered = Probes.newTaskCounter();
        SpinThenYield idle = new SpinThenYield();
        while (running) {
            Object item = work.produce();
            if (item == null) {
                idle.idle();
                continue;
            }
            idle.reset();
            int n = work.consume(item);
            if (n > 0) {
                delivered.add(n);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(JOIN_MILLIS);
    }
}
