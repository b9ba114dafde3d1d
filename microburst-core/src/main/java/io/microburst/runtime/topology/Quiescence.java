package io.microburst.runtime.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.executor.IdleProbe;
import org.apache.storm.utils.Time;

/**
 * Waits until topologies are idle, for simulated time: every executor has taken a whole turn that found nothing to
 * do (no tuple, no mail, spouts polled and emitting nothing), twice in a row with no work in between, so that
 * everything sent before the wait began has been executed and everything it caused too. An executor whose thread
 * sleeps on Storm's simulated clock (user code in {@code Utils.sleep}) counts as idle: it waits for the clock, as
 * Storm's own idle check counts such threads.
 *
 * <p>Executors answer a probe on their idle path only (see {@code Executor#answerIdleProbe}); nothing is added to a
 * turn that does work but one counter increment.
 *
 * <p>Threading: any thread may wait; executors answer on their own threads.
 */
public final class Quiescence {
    /** How often the waiter looks again at executors that have not answered (sleeping on the clock, stopped). */
    private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long SLEEPING = -1;

    private Quiescence() {
    }

    /**
     * Waits until every executor of {@code topologies} is idle (see the class comment), or {@code timeoutMs} has
     * passed.
     *
     * @return true when they were idle; false when the time ran out first (a spout that never stops emitting, a task
     *     that never returns)
     */
    public static boolean await(List<TopologyRuntime> topologies, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        Map<Executor, Long> previous = null;
        while (true) {
            List<Executor> executors = new ArrayList<>();
            for (TopologyRuntime t : topologies) {
                if (!t.isStopped()) {
                    for (Executor e : t.executors()) {
                        if (!e.isStoppedForGood()) {
                            executors.add(e);
                        }
                    }
                }
            }
            Map<Executor, Long> answers = round(executors, deadline);
            if (answers == null) {
                return false;
            }
            if (previous != null && sameTurns(previous, answers)) {
                return true;
            }
            previous = answers;
        }
    }

    /** True when no executor did work between the two rounds (a sleeping one is taken as idle). */
    private static boolean sameTurns(Map<Executor, Long> before, Map<Executor, Long> after) {
        if (!before.keySet().equals(after.keySet())) {
            return false;
        }
        for (Map.Entry<Executor, Long> e : after.entrySet()) {
            long was = before.get(e.getKey());
            long now = e.getValue();
            if (was != now && was != SLEEPING && now != SLEEPING) {
                return false;
            }
        }
        return true;
    }

    /** Probes every executor once; their answers (work turns, or {@link #SLEEPING}), or null past the deadline. */
    private static Map<Executor, Long> round(List<Executor> executors, long deadline) throws InterruptedException {
        IdleProbe probe = new IdleProbe(executors.size());
        for (Executor e : executors) {
            e.askIdle(probe);
            Thread t = e.inbox().thread();
            if (t != null) {
                LockSupport.unpark(t); // a parked executor answers on its next turn, at once
            }
        }
        Map<Executor, Long> answers = new HashMap<>();
        while (true) {
            boolean all = true;
            for (Executor e : executors) {
                Long turns = probe.answers().get(e);
                if (turns == null) {
                    Thread t = e.inbox().thread();
                    if (e.isStoppedForGood() || t != null && sleepsOnStormClock(t)) {
                        turns = SLEEPING;
                    } else {
                        all = false;
                        continue;
                    }
                }
                answers.put(e, turns);
            }
            if (all) {
                return answers;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            probe.answered().await(Math.min(left, RECHECK_NANOS), TimeUnit.NANOSECONDS);
        }
    }

    private static boolean sleepsOnStormClock(Thread t) {
        return Time.isSimulating() && t.getState() != Thread.State.NEW && Time.isThreadWaiting(t);
    }
}
