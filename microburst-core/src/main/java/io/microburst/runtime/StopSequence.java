package io.microburst.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import io.microburst.plan.ComponentPlan;
import io.microburst.plan.Subscription;
import io.microburst.plan.TopologyPlan;
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

    private StopSequence() {
    }

    /**
     * Asks every executor to stop and waits for all of them together, with one deadline: at half of it the ones
     * still running are interrupted (they may be stuck in user code that waits); at the deadline the rest are left
     * behind (daemon threads) with a warning. With {@code drain} (a kill), first {@link #drain}s for at most half the
     * timeout, so that tuples in flight are executed rather than lost.
     */
    static void stop(TopologyPlan plan, Placement placement, long stopTimeoutMs, boolean drain) {
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
            for (Executor e : all) {
                e.awaitStopUntil(start + timeout / 2);
            }
            for (Executor e : all) {
                e.interruptIfRunning();
            }
            List<Executor> stuck = new ArrayList<>();
            for (Executor e : all) {
                if (!e.awaitStopUntil(start + timeout)) {
                    stuck.add(e);
                }
            }
            if (!stuck.isEmpty()) {
                LOG.warn("Executors {} did not stop within {} ms (stuck in user code?)", stuck, stopTimeoutMs);
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
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
     * Stops the executors group by group, producers first, each once it has executed what waits in its queues, until
     * {@code deadlineNanos} (a {@link System#nanoTime()} reading). Returns true if all stopped in time; the caller
     * stops the rest (cutting their drain short).
     */
    static boolean drain(TopologyPlan plan, Executor[] executors, long deadlineNanos) throws InterruptedException {
        for (List<Executor> group : groups(plan, executors)) {
            for (Executor e : group) {
                e.requestDrainingStop();
            }
            for (Executor e : group) {
                if (!e.awaitStopUntil(deadlineNanos)) {
                    return false;
                }
            }
        }
        return true;
    }
}
