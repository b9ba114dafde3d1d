package io.microburst.runtime.executor;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Where {@code Quiescence} leaves a question ({@link IdleProbe}) for one executor, and the executor's side of answering
 * it: the first idle turn that sees the probe arms it and asks for another turn at once, so that the answer comes from
 * a whole turn begun after the probe was seen; that turn, if idle too, answers. {@link #ask} from any thread; the rest
 * on the executor's own thread, on idle turns only.
 */
final class IdleProbeSlot {
    private final AtomicReference<IdleProbe> waiting = new AtomicReference<>();
    /** The probe seen on the previous idle turn, answered on the next one (executor thread only). */
    private IdleProbe armed;

    /** Leaves {@code probe} for the executor. Any thread. */
    void ask(IdleProbe probe) {
        waiting.set(probe);
    }

    /** True when a probe waits. Executor thread. */
    boolean waiting() {
        return waiting.get() != null;
    }

    /**
     * An idle turn with a probe waiting: arms it and returns true (take another turn at once), or answers it with
     * {@code workTurns}, the count of turns that did work so far, and returns false. Executor thread.
     */
    boolean armOrAnswer(Executor executor, long workTurns) {
        IdleProbe p = waiting.get();
        if (p != armed) {
            armed = p;
            return true;
        }
        armed = null;
        if (waiting.compareAndSet(p, null)) {
            p.answer(executor, workTurns);
        }
        return false;
    }
}
