package io.microburst.runtime.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import io.microburst.plan.ComponentPlan;
import io.microburst.plan.Subscription;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.executor.ReleasedSpouts;
import io.microburst.runtime.task.TaskRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a topology's executors stop, all together with one deadline; for a kill, in an order that loses nothing already
 * in flight: producers before their consumers. A component's rank is the length of the longest subscription path that reaches it from a spout (members
 * of a cycle get some rank within the cycle's bound; a drain over a cycle ends at its first quiet turn); an executor
 * stops with the highest rank among its tasks, since a fused executor also hosts the consumers of its producers.
 *
 * <p>Threading: pure; any thread.
 */
final class StopSequence {
    private static final Logger LOG = LoggerFactory.getLogger(StopSequence.class);

    /**
     * How long an executor whose thread is inside a spout call gets to come back on its own at each step of a stop:
     * before it is interrupted, and again before its spouts are closed from outside. Storm's executor shutdown
     * interrupts an executor's thread, waits 100 ms for it to end, then closes its spouts from the shutdown thread
     * whether it ended or not.
     */
    static final long SPOUT_CALL_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private StopSequence() {
    }

    /**
     * Asks every executor to stop and waits for all of them together, with one deadline: at half of it the ones
     * still running are interrupted (they may be stuck in user code that waits); at the deadline the rest are left
     * behind (daemon threads) with a warning. An executor stuck inside a spout call is not waited for that long (see
     * {@link #awaitReleasingStuckSpouts}). With {@code drain} (a kill), first {@link #drain}s for at most half the
     * timeout, so that tuples in flight are executed rather than lost. An executor whose tasks are all of
     * {@code mayTrail}'s components (null: none) is not waited for once its loop ended: its closes go on, and the
     * returned {@link TrailingCloses} waits for them.
     */
    static TrailingCloses stop(TopologyPlan plan, Placement placement, long stopTimeoutMs, boolean drain,
                               Predicate<String> mayTrail) {
        long timeout = TimeUnit.MILLISECONDS.toNanos(stopTimeoutMs);
        try {
            if (drain) {
                drain(plan, placement.executors(), System.nanoTime() + timeout / 2);
            }
            Executor[] all = placement.haltAndList();
            for (Executor e : all) {
                e.requestStop();
            }
            long start = System.nanoTime();
            boolean[] trails = new boolean[all.length];
            List<Executor> trailing = new ArrayList<>();
            for (int i = 0; i < all.length; i++) {
                trails[i] = TrailingCloses.mayTrail(all[i], mayTrail) && all[i].awaitLoopEndUntil(start);
                if (trails[i]) {
                    trailing.add(all[i]);
                }
            }
            awaitReleasingStuckSpouts(all, trails, start + timeout / 2);
            List<Executor> stuck = new ArrayList<>();
            for (int i = 0; i < all.length; i++) {
                if (!trails[i]) {
                    all[i].interruptForStop();
                }
            }
            for (int i = 0; i < all.length; i++) {
                if (!trails[i] && !all[i].awaitStopUntil(start + timeout)) {
                    stuck.add(all[i]);
                }
            }
            if (!stuck.isEmpty()) {
                LOG.warn("Executors {} did not stop within {} ms (stuck in user code?)", stuck, stopTimeoutMs);
            }
            return trailing.isEmpty() ? TrailingCloses.NONE
                : new TrailingCloses(trailing, start + timeout, stopTimeoutMs);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return TrailingCloses.NONE;
        }
    }

    /**
     * The stop's one clock for "still inside a spout call": how long, and at how many checks in a row, an executor has
     * been found inside a spout call (a check that finds it elsewhere starts it over). Both count: on a loaded machine
     * two checks can lie 100 ms apart, and each may catch a thread that is only passing through its spout's code.
     */
    private static final class SpoutCallWatch {
        /** Checks in a row that must find the executor inside a spout call, whatever the time between them. */
        private static final int MIN_CHECKS = 5;
        private final Executor executor;
        private int checks;
        private long since;

        SpoutCallWatch(Executor executor) {
            this.executor = executor;
        }

        /**
         * Checks the executor at {@code now}; true if it has been inside a spout call at every check for {@code nanos}
         * or more, and at {@value #MIN_CHECKS} checks or more.
         */
        boolean inCallFor(long now, long nanos) {
            if (!executor.inSpoutCall()) {
                checks = 0;
                return false;
            }
            if (checks++ == 0) {
                since = now;
            }
            return checks >= MIN_CHECKS && now - since >= nanos;
        }

        /** Starts the clock over at the next check. */
        void restart() {
            checks = 0;
        }

        /** True if the last check found the executor inside a spout call (and the clock was not started over). */
        boolean inCall() {
            return checks > 0;
        }
    }

    /**
     * Waits until every executor but those that {@code trails} has stopped, or {@code deadlineNanos} has passed. An
     * executor whose thread stays inside a spout call for {@link #SPOUT_CALL_GRACE_NANOS} is interrupted; if it comes
     * back, it closes its spouts itself, on its own thread, so close() never runs while another call of the same
     * spout does. If it is still inside a spout call {@link #SPOUT_CALL_GRACE_NANOS} later, further calls into its
     * spouts are barred and they are closed from this thread, with a warning naming them: a spout blocked on a
     * subprocess, such as a multi-lang spout whose script never answers, lets go only when closed.
     */
    private static void awaitReleasingStuckSpouts(Executor[] all, boolean[] trails, long deadlineNanos)
        throws InterruptedException {
        SpoutCallWatch[] watches = new SpoutCallWatch[all.length];
        boolean[] interrupted = new boolean[all.length];
        boolean[] released = new boolean[all.length];
        for (int i = 0; i < all.length; i++) {
            watches[i] = new SpoutCallWatch(all[i]);
        }
        while (true) {
            Executor running = null;
            long now = System.nanoTime();
            for (int i = 0; i < all.length; i++) {
                Executor e = all[i];
                if (trails[i] || e.isStoppedForGood()) {
                    continue;
                }
                running = e;
                if (released[i]) {
                    continue;
                }
                boolean stuck = watches[i].inCallFor(now, SPOUT_CALL_GRACE_NANOS);
                if (!watches[i].inCall()) {
                    interrupted[i] = false; // it came back: a later stuck call gets an interrupt of its own
                } else if (stuck && !interrupted[i]) {
                    LOG.info("Executor {} is still inside a spout call {} ms into the stop; interrupting it", e,
                        TimeUnit.NANOSECONDS.toMillis(SPOUT_CALL_GRACE_NANOS));
                    e.interruptForStop();
                    interrupted[i] = true;
                    watches[i].restart();
                } else if (stuck) {
                    released[i] = true;
                    ReleasedSpouts closed = e.releaseStuckSpouts();
                    if (closed != null) {
                        LOG.warn("Executor {} is still inside a spout call ({}) {} ms after its interrupt; closing"
                            + " spout tasks {} from the stopping thread, while that call runs", e, closed.call(),
                            TimeUnit.NANOSECONDS.toMillis(SPOUT_CALL_GRACE_NANOS), closed.tasks());
                    }
                }
            }
            if (running == null || now - deadlineNanos >= 0) {
                return;
            }
            running.awaitStopUntil(Math.min(deadlineNanos, now + POLL_NANOS));
        }
    }

    /**
     * Waits until {@code e}'s loop has ended (true), or {@code deadlineNanos} has passed (false). An executor found
     * inside a spout call for {@link #SPOUT_CALL_GRACE_NANOS} cannot drain: it is left to the stop (true), so the
     * components after it still drain.
     */
    private static boolean awaitDrained(Executor e, long deadlineNanos) throws InterruptedException {
        SpoutCallWatch watch = new SpoutCallWatch(e);
        while (true) {
            long now = System.nanoTime();
            if (e.awaitLoopEndUntil(Math.min(deadlineNanos, now + POLL_NANOS))) {
                return true;
            }
            now = System.nanoTime();
            if (now - deadlineNanos >= 0) {
                return false;
            }
            if (watch.inCallFor(now, SPOUT_CALL_GRACE_NANOS)) {
                return true;
            }
        }
    }

    /** Each component's rank: 0 for components nothing feeds, else one more than its highest-ranked producer. */
    static Map<String, Integer> ranks(TopologyPlan plan) {
        Map<String, Integer> rank = new HashMap<>();
        for (String id : plan.components().keySet()) {
            rank.put(id, 0);
        }
        int bound = plan.components().size();
        boolean changed = true;
        for (int round = 0; changed && round < bound; round++) {
            changed = false;
            for (ComponentPlan c : plan.components().values()) {
                for (Subscription s : c.inputs()) {
                    String producer = s.stream().componentId();
                    if (producer.equals(c.id()) || !rank.containsKey(producer)) {
                        continue;
                    }
                    int wanted = Math.min(bound, rank.get(producer) + 1);
                    if (rank.get(c.id()) < wanted) {
                        rank.put(c.id(), wanted);
                        changed = true;
                    }
                }
            }
        }
        return rank;
    }

    /** The executors grouped by rank, lowest first; the executors of one group may stop together. */
    static List<List<Executor>> groups(TopologyPlan plan, Executor[] executors) {
        Map<String, Integer> rank = ranks(plan);
        TreeMap<Integer, List<Executor>> byRank = new TreeMap<>();
        for (Executor e : executors) {
            int r = 0;
            for (TaskRunner t : e.tasks()) {
                r = Math.max(r, rank.getOrDefault(t.componentId(), 0));
            }
            byRank.computeIfAbsent(r, k -> new ArrayList<>()).add(e);
        }
        return new ArrayList<>(byRank.values());
    }

    /**
     * Stops the executors' loops group by group, producers first, each once it has executed what waits in its queues,
     * until {@code deadlineNanos} (a {@link System#nanoTime()} reading). The next group does not wait for the tasks of
     * the one before to close (closes that wait, such as Trident's ZooKeeper clients, then overlap); the caller waits
     * for them. Returns true if all loops ended in time; the caller stops the rest (cutting their drain short).
     */
    static boolean drain(TopologyPlan plan, Executor[] executors, long deadlineNanos) throws InterruptedException {
        for (List<Executor> group : groups(plan, executors)) {
            for (Executor e : group) {
                e.requestDrainingStop();
            }
            for (Executor e : group) {
                if (!awaitDrained(e, deadlineNanos)) {
                    return false;
                }
            }
        }
        return true;
    }
}
