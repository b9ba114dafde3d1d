package io.microburst.runtime.task;

import java.util.List;
import io.microburst.reliability.PendingTrees;
import io.microburst.reliability.TrackedMessageId;
import io.microburst.reliability.TupleTree;
import io.microburst.plan.ComponentPlan;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.clock.TurnBudget;
import io.microburst.serialization.SerializationCheck;
import org.apache.storm.spout.ISpout;
import org.apache.storm.spout.ISpoutOutputCollector;
import org.apache.storm.spout.SpoutOutputCollector;

/**
 * A spout task: calls nextTuple while the topology is active and its pending trees are below max spout pending,
 * creates a tuple tree for every emit with a message id, and calls ack/fail on its own thread when a tree completes,
 * fails or times out. Confined to its executor's thread, except {@link #treeCompleted}.
 *
 * <p>Public for the executor loop ({@code runtime.executor}: nextTuple calls, idle accounting, stop handling) and the
 * topology ({@code runtime.topology}: activation, timers and statistics, posted to the executor's thread); the emits
 * stay package-private.
 */
public final class SpoutTask extends TaskRunner implements TupleTree.Owner, ISpoutOutputCollector {
    /** A first nextTuple faster than this lets the turn read the clock only every 64 calls (64 x 5 us < 1 ms). */
    private static final long FAST_NEXT_TUPLE_NANOS = 5_000;
    final PendingTrees pending = new PendingTrees();
    private final TimedOutTrees timeouts = new TimedOutTrees(this); // traced to the task that last held them
    private int maxPending;
    /** Fast calls read the clock every 64 (63) or, capped by an upgrade ({@link #capPending}), every call (0). */
    private int clockMask = 63;
    /** Auto-tuning of {@link #maxPending}, or null. */
    private final PendingTuning tuning;
    private long ackedSinceTune;
    ISpout spout;
    private final OpenedSpout opened = new OpenedSpout();
    private boolean activated;
    private int inFlight;
    private int emittedThisCall;
    /**
     * 1 when this spout's last calls were slow (see {@link TurnBudget#slowCalls}): its emits are handed over at once.
     * Starts at 1: nothing is known of the calls before the first returns. Executor thread.
     */
    private int slowCalls = 1;
    /** True when the last {@link #runNextTuples} called nextTuple at least once (executor thread only). */
    private boolean polled;
    private long[] edges = new long[8];
    /** Counts trees up to {@link #samplePeriod}: the tree that reaches it records its emit time (complete latency). */
    private int sampleCounter;

    public SpoutTask(TaskHost host, Inbox inbox, Outbox outbox, ComponentPlan component, int taskId) {
        super(host, inbox, outbox, component, taskId);
        this.sampleCounter = sampleEvery - 1; // the first tree is timed
        this.tuning = PendingTuning.of(component, PendingTuning.configured(component));
        capPending(0);
    }

    @Override
    public void start() {
        try {
            ISpout fresh = (ISpout) newInstance();
            SpoutOutputCollector collector = DebugLog.enabled(component.conf())
                ? DebugLog.spoutCollector(this, taskId, component.id()) : new SpoutOutput(this);
            fresh.open(component.conf(), context, SerializationCheck.wrap(collector, component.conf(), context));
            spout = fresh; // only an opened instance is ever closed, as in Storm
            opened.opened(fresh);
            preparedFlag().set(true);
            up = true;
            host.taskStarted(this);
            if (host.isActive()) {
                activate();
            }
        } catch (Throwable t) {
            failed(t, "open");
        }
    }

    public void activate() {
        if (up && !activated && !barredByStop) {
            activated = true;
            try {
                spout.activate();
            } catch (Throwable t) {
                failed(t, "activate");
            }
        }
    }

    public void deactivate() {
        if (up && activated && !barredByStop) {
            activated = false;
            try {
                spout.deactivate();
            } catch (Throwable t) {
                failed(t, "deactivate");
            }
        }
    }

    /**
     * This task's executor idled {@code nanos} on a turn that did no work: counted as Storm counts its spout's skipped
     * time (see {@link SkippedTime}; {@code inactive}: the topology is deactivated; {@code heldBack}: the spouts wait
     * for full queues to drain).
     */
    public void idled(long nanos, boolean inactive, boolean heldBack) {
        if (up) {
            SkippedTime.count(stats, nanos, inactive, heldBack, maxPending > 0 && inFlight >= maxPending);
        }
    }

    /**
     * Calls nextTuple up to {@code max} times while it emits; returns the number of tuples emitted. Slow calls (see
     * {@link TurnBudget#slowCalls}) end the loop, so what they emitted is handed over at once, and make the next loop
     * hand each emit over as it happens (see {@link Outbox#pace}): a tuple never waits for a nextTuple that emitted it
     * and then blocked. A loop whose calls are fast again goes back to filling batches.
     */
    public int runNextTuples(int max) {
        polled = false;
        if (!up || !activated || barredByStop) {
            return 0;
        }
        outbox.pace(slowCalls);
        int emitted = 0;
        // the outbox's clock: hand-overs (unparks, waits for room) are not the calls' own time
        long start = outbox.userClock();
        int checkMask = 0;
        // Only this counter and the loop's own bounds are carried from call to call: C2 often leaves a real call in
        // the loop's body, and every value live across it is stored and reloaded per call (see
        // docs/performance/2026-11-24-slow-user-calls.md).
        int calls = 0;
        while (calls < max) {
            if (maxPending > 0 && inFlight >= maxPending) {
                break;
            }
            emittedThisCall = 0;
            polled = true;
            try {
                spout.nextTuple();
            } catch (Throwable t) {
                failed(t, "nextTuple");
                break;
            }
            calls++;
            // One branch for both (a stop that gave up on this thread bars any further call; see StopSequence).
            if (emittedThisCall == 0 | barredByStop) {
                // this call may have waited with tuples of the calls before: a loop that emitted is judged with it
                int measured = TurnBudget.exceeds(emitted, 0);
                int slow = TurnBudget.slowCalls(outbox.userClock() - start, calls);
                slowCalls = (slow & measured) | (slowCalls & (measured ^ 1));
                return emitted;
            }
            emitted += emittedThisCall;
            // A slow nextTuple must not hold back this executor's mail (acks, ticks, a stop) for a whole batch, nor the
            // tuples it emitted. The clock is read after the first call (checkMask starts at 0); while the calls are
            // fast it is then read every 64 calls, else every call, and that reading of the whole loop so far judges
            // the pace. The decisions are arithmetic, not branches (see TurnBudget): over the turn's time, or at a slow
            // pace, max drops to the calls made and the loop ends; the pace also decides how the next emits, and the
            // next loop's, are handed over.
            if ((calls & checkMask) == 0) {
                if (inbox.stopRequested()) {
                    break;
                }
                long elapsed = outbox.userClock() - start;
                int slow = TurnBudget.slowCalls(elapsed, calls);
                max -= (max - calls) * (TurnBudget.exceeds(elapsed, TurnBudget.TURN_BUDGET_NANOS) | slow);
                checkMask = clockMask * TurnBudget.exceeds(FAST_NEXT_TUPLE_NANOS * calls, elapsed);
                slowCalls = slow;
                outbox.pace(slow);
            }
        }
        return emitted;
    }

    /**
     * The spout's emits. This task is its spout's collector itself, with no object in between: a fused chain inlines
     * into the spout's loop only while it stays within the JIT's inlining depth, and every call level counts.
     */
    @Override
    public List<Integer> emit(String streamId, List<Object> values, Object messageId) {
        int directTask = takeDirectTask();
        StreamRoute r = route(streamId);
        r.checkValues(values, this);
        Link single = chooseTargets(r, values, directTask);
        List<Integer> out = single != null ? single.targetTasks : chosenTasks;
        int n = single != null ? 1 : targetCount;
        if (messageId != null && acking) {
            sendTracked(r, values, messageId, single, n);
        } else if (single != null) {
            outbox.send(single, values, UNANCHORED);
        } else {
            for (int i = 0; i < n; i++) {
                outbox.send(targets[i], values, UNANCHORED);
            }
        }
        stats.emitted(r.index, n);
        emittedThisCall++;
        if (!hooks.isEmpty()) {
            spoutEmitHooks(values, streamId, out, messageId);
        }
        if (messageId != null && !acking) {
            acked(messageId, r.index, -1);
        }
        return out;
    }

    /** Out of line, so that emit stays small (see {@link SpoutHooks#emitted}). */
    private void spoutEmitHooks(List<Object> values, String streamId, List<Integer> out, Object messageId) {
        SpoutHooks.emitted(this, values, streamId, out, messageId != null && acking, edges, pending.newest());
    }

    @Override
    public void emitDirect(int taskId, String streamId, List<Object> tuple, Object messageId) {
        directTo(taskId, streamId);
        emit(streamId, tuple, messageId);
    }

    @Override
    public long getPendingCount() {
        return inFlight;
    }

    /**
     * Starts a tuple tree: every edge id is XORed into it before the first tuple leaves.
     *
     * @param single the only target, or null when the targets are in {@link #targets}
     */
    private void sendTracked(StreamRoute r, List<Object> values, Object messageId, Link single, int n) {
        if (edges.length < n) {
            edges = new long[Math.max(n, edges.length * 2)];
        }
        long ackVal = 0;
        for (int i = 0; i < n; i++) {
            long e = nextId();
            edges[i] = e;
            ackVal ^= e;
        }
        long emitNanos = 0;
        if (++sampleCounter >= samplePeriod) {
            sampleCounter = 0;
            emitNanos = System.nanoTime();
            sampled(emitNanos);
        }
        TupleTree tree = new TupleTree(nextId(), messageId, r.streamId, r.index, emitNanos, ackVal, this);
        pending.add(tree);
        inFlight++;
        for (int i = 0; i < n; i++) {
            outbox.send(single != null ? single : targets[i], values, TrackedMessageId.of(tree, edges[i]));
        }
        if (n == 0) {
            tree.completeIfEmpty();
        }
    }

    /** Any thread: a tree left PENDING through an ack or a fail. */
    @Override
    public void treeCompleted(TupleTree tree) {
        inbox.completeTree(tree);
    }

    /** Spout thread: reports a completed tree to the spout, unless a failed instance emitted it (as in Storm). */
    @Override
    public void finishTree(TupleTree tree) {
        inFlight--;
        if (!pending.remove(tree)) {
            return;
        }
        int stream = tree.streamIndex();
        long nanos = Sampling.sinceEmit(tree);
        if (tree.state() == TupleTree.ACKED && !tree.misused()) {
            acked(tree.messageId(), stream, nanos);
        } else {
            failedTree(tree.messageId(), stream, nanos);
        }
    }

    /** Spout thread: the older bucket of pending trees times out. */
    public void rotate(long timeoutNanos) {
        pending.rotate(SharedTimer.stampNanos(), timeoutNanos, timeouts);
        timeouts.handOver();
    }

    /** Spout thread: every pending tree fails back to the spout, for replay (an upgrade whose wait ran out). */
    public void failPending() {
        pending.clear(this::timedOut);
    }

    void timedOut(TupleTree tree) {
        if (tree.expire()) {
            inFlight--;
            failedTree(tree.messageId(), tree.streamIndex(), Sampling.sinceEmit(tree));
        }
    }

    /** Spout thread: one tuning step from the trees acked since the last (max spout pending auto-tuning). */
    public void autoTune() {
        if (tuning != null) {
            maxPending = tuning.step(ackedSinceTune);
            ackedSinceTune = 0;
        }
    }

    public boolean autoTuned() {
        return tuning != null;
    }

    /** The current bound on pending trees (0 = none); public for the executor's balancer, on this task's thread. */
    public int maxPending() {
        return maxPending;
    }

    /** At most {@code cap} pending trees for now ({@link FirstTreeWatch}); 0: the configured or tuned bound again. */
    void capPending(int cap) {
        int bound = tuning != null ? tuning.max() : PendingTuning.configured(component);
        maxPending = cap > 0 && (bound == 0 || cap < bound) ? cap : bound;
        clockMask = cap > 0 ? 0 : 63; // a blocking nextTuple ends the turn: the first commit's acks wait for none
    }

    private void acked(Object messageId, int stream, long completeNanos) {
        ackedSinceTune++;
        stats.spoutAcked(stream, completeNanos);
        if (up & !barredByStop) {
            try {
                spout.ack(messageId);
            } catch (Throwable t) {
                failed(t, "ack");
            }
        }
        if (!hooks.isEmpty()) {
            SpoutHooks.acked(this, messageId, completeNanos);
        }
    }

    private void failedTree(Object messageId, int stream, long nanos) {
        stats.spoutFailed(stream);
        if (up & !barredByStop) {
            try {
                spout.fail(messageId);
            } catch (Throwable t) {
                failed(t, "fail");
            }
        }
        if (!hooks.isEmpty()) {
            SpoutHooks.failed(this, messageId, nanos);
        }
    }

    /** Whether the last {@link #runNextTuples} called nextTuple at least once. Executor thread. */
    public boolean polled() {
        return polled;
    }

    /** Restarts after a failure: a fresh instance, opened and activated like the first. */
    @Override
    void restart() {
        // its pending trees are abandoned (their ids are the dead instance's): the next hears of none, even of those
        // completed and on their way, and the count no longer holds nextTuple back
        pending.abandon(tree -> {
            boolean expired = tree.expire();
            inFlight -= expired ? 1 : 0;
            return expired;
        });
        closeQuietly();
        activated = false;
        capPending(0); // a bound set through the old instance's hooks goes with them
        start();
    }

    private void closeQuietly() {
        spout = null;
        opened.closeIfNotTaken(this);
        cleanupHooks();
    }

    /**
     * Deactivates (unless a stop gave up on this thread) and closes the instance, on this task's thread, unless the
     * stopping thread closed it already ({@link #closeFromStopper}; see {@link OpenedSpout}).
     */
    @Override
    public void shutdown() {
        if (up && !barredByStop) {
            deactivate();
        }
        up = false;
        closeQuietly();
    }

    /**
     * On the stopping thread, once it has given up on this task's thread (inside a call of this spout 100 ms after its
     * interrupt; see {@code StopSequence}): closes the instance from there, unless this task's thread took it first.
     * A spout waiting on something its close() ends (a multi-lang subprocess that never answers) lets go. Storm's
     * executor shutdown closes its spouts from outside too, without checking whether the thread came back.
     *
     * @return true if this call closed the instance
     */
    public boolean closeFromStopper() {
        return opened.closeIfNotTaken(this);
    }
}
