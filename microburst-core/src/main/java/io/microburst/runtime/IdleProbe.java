package io.microburst.runtime;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * One round of {@link Quiescence}'s question to executors: "have you taken a whole turn with nothing to do, and how
 * many turns did work so far?". Each executor answers on its own thread (see {@code Executor#answerIdleProbe}).
 *
 * <p>Threading: executors answer from their threads; the waiter reads.
 */
final class IdleProbe {
    final Map<Executor, Long> answers = new ConcurrentHashMap<>();
    final CountDownLatch answered;

    IdleProbe(int executors) {
        answered = new CountDownLatch(executors);
    }

    /** Executor thread: it finished a whole idle turn; {@code workTurns} is how many of its turns did work so far. */
    void answer(Executor e, long workTurns) {
        answers.put(e, workTurns);
        answered.countDown();
    }
}
