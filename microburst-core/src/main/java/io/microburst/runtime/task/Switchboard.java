package io.microburst.runtime.task;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the data path of one topology shares between its executors: every executor's {@link Inbox} by index, whether
 * the topology is active or halted, how many executors hold batches for a full consumer on a cycle, and the count of
 * tuples dropped at a stop. Producers read it per batch, never per tuple.
 *
 * <p>Threading: any thread. The inbox array is replaced (volatile) when an executor is added; the flags are volatile;
 * the counters are atomic.
 *
 * <p>Public because the executor loop ({@code runtime.executor}) and the topology ({@code runtime.topology}) read and
 * set the topology-wide flags; any thread.
 */
public final class Switchboard {
    private volatile Inbox[] inboxes = new Inbox[0];
    private volatile boolean active;
    private volatile boolean halted;
    private final AtomicLong dropped = new AtomicLong();
    /** Executors holding tuples for a full consumer on a cycle; spouts pause while any does. */
    private final AtomicInteger overflowing = new AtomicInteger();
    /**
     * For each executor index, its strongly connected group (see {@code CycleGroups}): executors of one group can feed
     * each other back. One int per executor, shared by every outbox.
     */
    private volatile int[] cycleGroups = new int[0];

    Inbox inbox(int index) {
        return inboxes[index];
    }

    Inbox[] inboxes() {
        return inboxes;
    }

    /** Each executor's cycle group, as last published. */
    public int[] cycleGroups() {
        return cycleGroups;
    }

    public void publish(Inbox[] all, int[] groups) {
        this.cycleGroups = groups;
        this.inboxes = all;
    }

    /** How many executors there are now. */
    int executorCount() {
        return inboxes.length;
    }

    /**
     * Whether executor {@code to} can feed executor {@code from} back, as where tasks run now says: then a full queue
     * from {@code from} to it must not block. A move only splits an executor, so a stale answer is one that still says
     * true.
     */
    boolean onCycle(int from, int to) {
        int[] g = cycleGroups;
        return from != to && from < g.length && to < g.length && g[from] == g[to];
    }

    public boolean isActive() {
        return active;
    }

    public void setActive(boolean value) {
        active = value;
    }

    public boolean isHalted() {
        return halted;
    }

    public void setHalted(boolean value) {
        halted = value;
    }

    void dropped(int count) {
        dropped.addAndGet(count);
    }

    public long droppedTotal() {
        return dropped.get();
    }

    void overflowChanged(int delta) {
        overflowing.addAndGet(delta);
    }

    public boolean spoutsMayRun() {
        return active && !halted && overflowing.get() == 0;
    }

    /**
     * Nanoseconds until the first of the topology's spout executors is polled next, while every one of them waits out
     * its spouts' wait strategy; 0 when any of them may be polled any moment (working, held back for another reason,
     * or using a wait strategy of the user's own, whose wait is not known).
     */
    public long untilSpoutsPoll() {
        long now = System.nanoTime();
        long soonest = Long.MAX_VALUE;
        for (Inbox e : inboxes) {
            long until = e.untilPoll(now);
            if (until == 0) {
                return 0;
            }
            if (until > 0) {
                soonest = Math.min(soonest, until);
            }
        }
        return soonest == Long.MAX_VALUE ? 0 : soonest;
    }

    /** Executors of this topology that were busy all through their last balance window. */
    public int busyExecutors() {
        int n = 0;
        for (Inbox e : inboxes) {
            if (e.busy()) {
                n++;
            }
        }
        return n;
    }
}
