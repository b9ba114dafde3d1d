package io.microburst.runtime.executor;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * One round of {@code Quiescence}'s question to executors: "have you taken a whole turn with nothing to do, and how
 * many turns did work so far?". Each executor answers on its own thread (see {@code Executor#answerIdleProbe}).
 *
 * <p>Threading: executors answer from their threads; the waiter reads.
 *
 * <p>Public for {@code Quiescence} ({@code runtime.topology}), which makes a probe, hands it to each executor and waits
 * for the answers on its own thread.
 */
public final class IdleProbe {
    final Map<Executor, Long> answers = new ConcurrentHashMap<>();
    final CountDownLatch answered;

    public IdleProbe(int executors) {
        answered = new CountDownLatch(executors);
    }

    /** Executor thread: it finished a whole idle turn; {@code workTurns} is how many of its turns did work so far. */
    void answer(Executor e, long workTurns) {
        answers.put(e, workTurns);
        answered.countDown();
    }

    /** Counted down once per executor that answered. Any thread. */
    public final CountDownLatch answered() {
        return answered;
    }

    /** Each executor's count of turns that did work, as it answered. Any thread, once answered. */
    public final Map<Executor, Long> answers() {
        return answers;
    }
}
