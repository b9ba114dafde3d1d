package io.microburst.runtime.topology;

import io.microburst.runtime.executor.Executor;
import java.util.List;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executors a stop did not wait for once their loops ended, because every task they run belongs to a component
 * whose close may trail the stop (an upgrade's old Trident coordinators, whose ZooKeeper clients take 100 ms each to
 * close while the new version starts). Their threads go on closing those tasks; {@link #await} waits for them, with
 * the stop's own deadline, before the topology's resources are released.
 *
 * <p>Threading: made by the stopping thread; {@link #await} on the thread that finishes the stop.
 */
final class TrailingCloses {
    private static final Logger LOG = LoggerFactory.getLogger(TrailingCloses.class);
    /** No executor trails: an ordinary stop. */
    static final TrailingCloses NONE = new TrailingCloses(List.of(), 0, 0);

    private final List<Executor> executors;
    private final long deadlineNanos;
    private final long timeoutMs;

    TrailingCloses(List<Executor> executors, long deadlineNanos, long timeoutMs) {
        this.executors = List.copyOf(executors);
        this.deadlineNanos = deadlineNanos;
        this.timeoutMs = timeoutMs;
    }

    /** Whether {@code e} may be left closing: it runs tasks, and all of them are of {@code mayTrail} components. */
    static boolean mayTrail(Executor e, Predicate<String> mayTrail) {
        if (mayTrail == null || e.tasks().length == 0) {
            return false;
        }
        for (var task : e.tasks()) {
            if (!mayTrail.test(task.componentId())) {
                return false;
            }
        }
        return true;
    }

    boolean isEmpty() {
        return executors.isEmpty();
    }

    /** Waits until every trailing executor's thread ended, or the stop's deadline passed (then warns). */
    void await() {
        for (Executor e : executors) {
            try {
                if (!e.awaitStopUntil(deadlineNanos)) {
                    LOG.warn("Executor {} did not close its tasks within {} ms (stuck in user code?)", e, timeoutMs);
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
