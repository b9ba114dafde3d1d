package io.microburst.runtime.task;

import java.util.Collection;
import java.util.List;
import io.microburst.reliability.TrackedMessageId;
import io.microburst.plan.ComponentPlan;
import io.microburst.runtime.cost.BalanceWindow;
import io.microburst.runtime.cost.SlowStreak;
import io.microburst.runtime.cost.ThreadWaits;
import io.microburst.serialization.SerializationCheck;
import org.apache.storm.Constants;
import org.apache.storm.hooks.ITaskHook;
import org.apache.storm.hooks.info.BoltExecuteInfo;
import org.apache.storm.task.IBolt;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.ShellBolt;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * A bolt task: executes the tuples delivered to it, and implements its collector's emit, ack and fail. Latencies are
 * sampled at the topology's {@code topology.stats.sample.rate} (Storm's default 0.05: one tuple in 20). Confined to its executor's thread (ack and fail may come from a thread
 * of the user's own; the tuple-tree ledger is safe for that).
 *
 * <p>Public for the layers above ({@code runtime.executor}: pipelining and moves between turns; {@code
 * runtime.topology}: placement, timers, statistics); what they call says which thread may call it. Per-tuple members
 * stay package-private.
 */
public final class BoltTask extends TaskRunner implements IOutputCollector {

    private IBolt bolt;
    private int sampleCounter;
    /** Acks and fails of the tuples given to the bolt, and the tracked tuples it holds. */
    final BoltAcks acks = new BoltAcks(this);
    private final AnchoredIds anchoredIds = new AnchoredIds();
    /** Where tick tuples come from: the system component, on its tick stream. */
    private Link tickLink;

    /**
     * True while this task receives tuples from producers on its own executor's thread by direct call: a task fused
     * into its producer's executor, or one of a slice (see FusionPlan). Written once, by the executor's own thread,
     * when a slow task is given its own executor.
     */
    volatile boolean fused;
    /** Whether producers on this executor's thread call this task directly (see {@link #fused}). Any thread. */
    public boolean isFused() {
        return fused;
    }

    /**
     * Whether this task takes tuples by direct call: false once it moved to an executor of its own, true again when it
     * came back (an undone cut). Written by the thread of the executor it leaves or rejoins, between turns.
     */
    public void setFused(boolean value) {
        fused = value;
    }

    /** Which copy of the execute code this task runs: the parity of its depth in its fused chain (see execute). */
    final boolean oddDepth;
    final SlowStreak slowStreak = new SlowStreak(ThreadWaits::currentNanos);

    /** Whether this task's sampled executes say it holds its producer back. Executor thread only. */
    public final SlowStreak slowStreak() {
        return slowStreak;
    }
    /** This task's share of its executor's last pipelining window (executor thread only; see Balancer). */
    final BalanceWindow window = new BalanceWindow();

    /** This task's share of its executor's last pipelining window. Executor thread only (see Balancer). */
    public final BalanceWindow window() {
        return window;
    }

    /** The links that lead to this task, so that a move updates them; guarded by itself. */
    private final List<Link> inbound = new java.util.ArrayList<>();

    /** Registers a link to this task and sets its executor. Any thread. */
    /** How many links lead to this task now (they are made on first use). Any thread. */
    int linkCount() {
        synchronized (inbound) {
            return inbound.size();
        }
    }

    void attach(Link link) {
        synchronized (inbound) {
            link.placeOn(inbox.index);
            inbound.add(link);
        }
    }

    /** This task now runs on {@code target}; so do the tuples sent to it from now on. */
    @Override
    public void moveTo(Inbox in, Outbox out) {
        synchronized (inbound) {
            super.moveTo(in, out);
            for (Link link : inbound) {
                link.placeOn(in.index);
            }
        }
    }

    public BoltTask(TaskHost host, Inbox inbox, Outbox outbox, ComponentPlan component, int taskId, boolean fused,
        int fusedDepth) {
        super(host, inbox, outbox, component, taskId);
        this.fused = fused;
        this.oddDepth = (fusedDepth & 1) == 1;
        // a fused task's first tuple is timed, so a slow one is found at once
        this.sampleCounter = fused ? sampleEvery - 1 : 0;
    }

    @Override
    public void start() {
        try {
            IBolt fresh = BasicBoltRunner.of(newInstance());
            OutputCollector collector;
            if (DebugLog.enabled(component.conf())) {
                fresh = DebugLog.bolt(fresh, taskId);
                collector = DebugLog.boltCollector(this, taskId, component.id());
            } else {
                collector = new BoltOutput(this);
            }
            fresh.prepare(component.conf(), context, SerializationCheck.wrap(collector, component.conf(), context));
            bolt = fresh; // only a prepared instance is ever cleaned up, as in Storm
            preparedFlag().set(true);
            up = true;
            host.taskStarted(this);
        } catch (Throwable t) {
            failed(t, "prepare");
        }
    }

    /**
     * Executes a tuple made elsewhere (one that crossed from a thread of the user's own, or from the local queue). It is
     * made again from its link, values and message id: the copies below then never merge a tuple made elsewhere with
     * their own, which would keep the JIT from scalar-replacing theirs.
     */
    void execute(RoutedTuple tuple) {
        execute(tuple.link, tuple.getValues(), tuple.getMessageId());
    }

    /**
     * Executes one tuple. The tuples of batches and of fused calls travel as their link, values and message id, and the
     * tuple is made in the method that executes it: that method is hot enough to be compiled on its own, and then
     * callers do not inline it, so a tuple made by a caller would be passed to a call and could not be scalar-replaced.
     * Made there, the tuple needs only the bolt's own code inlined into that method.
     *
     * <p>There are two copies of that method, and a task uses the one its fused depth's parity picks. The JIT profiles
     * the receiver types of {@code bolt.execute} per call site, and with one copy the site saw every bolt class: a
     * producer and the consumer fused into it were both inlined there, and the compiled code made one tuple for both
     * branches. When the producer's branch let its input escape (a lambda capturing the input tuple and passed to a
     * call, as WordCount's split bolt does), the consumer's tuples were allocated too, one per word. With a copy each,
     * adjacent tasks of a fused chain have call sites of their own. See docs/performance/2026-11-22-fused-path.md, "One call site per fused
     * depth". The hot callers (a fused send, the drain loop) pick the copy themselves rather than call this method, so
     * that each hop of a fused chain costs one inlining level less (C2 inlines at most 15 levels deep).
     *
     * <p>Each copy is kept under C2's limit for inlining a hot method (325 bytes of bytecode, {@code FreqInlineSize}), so
     * that a fused delivery inlines into its producer: the cold parts (sampling, a failing bolt, hooks) are methods of
     * their own. At 329 bytes the single method it once was was compiled apart, and every fused tuple paid a call.
     */
    void execute(Link link, List<Object> values, MessageId id) {
        if (oddDepth) {
            executeOdd(link, values, id);
        } else {
            executeEven(link, values, id);
        }
    }

    /** The copy for tasks at an even fused depth (0 for a bolt with executors of its own, run from its queue). */
    void executeEven(Link link, List<Object> values, MessageId id) {
        RoutedTuple tuple = link.tuple(values, id);
        if (!up && !replacement.await(id)) {
            BoltAcks.failTree(tuple); // waited for a replacement, and a stop or halt came first: the tuple fails back
            return;
        }
        boolean sampled = ++sampleCounter >= samplePeriod && outbox.mayTime(sampleCounter, samplePeriod);
        long start = sampled ? startSample(tuple) : 0;
        try {
            bolt.execute(tuple);
        } catch (Throwable t) {
            executeFailed(id, t, sampled); // never the tuple itself, which would make it escape
            return;
        }
        long nanos = sampled ? outbox.endTiming(start) : -1;
        if (id instanceof TrackedMessageId && !tuple.settled() && acking) {
            acks.held.add(tuple); // most bolts ack within execute, and their tuples are never held
        }
        if (sampled && fused) {
            checkSpeed(start, nanos);
        }
        int input = tuple.inputIndex();
        if (input >= 0) {
            stats.executed(input, nanos);
        }
        if (!hooks.isEmpty()) {
            executeHooks(tuple, nanos);
        }
    }

    /** The copy for tasks at an odd fused depth: line for line the same as {@link #executeEven}. */
    void executeOdd(Link link, List<Object> values, MessageId id) {
        RoutedTuple tuple = link.tuple(values, id);
        if (!up && !replacement.await(id)) {
            BoltAcks.failTree(tuple); // waited for a replacement, and a stop or halt came first: the tuple fails back
            return;
        }
        boolean sampled = ++sampleCounter >= samplePeriod && outbox.mayTime(sampleCounter, samplePeriod);
        long start = sampled ? startSample(tuple) : 0;
        try {
            bolt.execute(tuple);
        } catch (Throwable t) {
            executeFailed(id, t, sampled); // never the tuple itself, which would make it escape
            return;
        }
        long nanos = sampled ? outbox.endTiming(start) : -1;
        if (id instanceof TrackedMessageId && !tuple.settled() && acking) {
            acks.held.add(tuple); // most bolts ack within execute, and their tuples are never held
        }
        if (sampled && fused) {
            checkSpeed(start, nanos);
        }
        int input = tuple.inputIndex();
        if (input >= 0) {
            stats.executed(input, nanos);
        }
        if (!hooks.isEmpty()) {
            executeHooks(tuple, nanos);
        }
    }

    /** A sampled tuple starts (see Outbox#timing): returns the time, which the tuple keeps for its process latency. */
    private long startSample(RoutedTuple tuple) {
        sampleCounter = 0;
        outbox.timing = true;
        long start = System.nanoTime();
        tuple.sampleStartsAt(start);
        sampled(start);
        return start;
    }

    /** The bolt threw from execute: the tuple and every tuple the instance held fail, and the instance is dropped. */
    private void executeFailed(MessageId id, Throwable error, boolean sampled) {
        outbox.timing &= !sampled; // the sample this execute took ends with it
        TreeLog.crashed(id, this);
        acks.held.failAll();
        failed(error, "execute");
    }

    /** A hook that throws is user code failing: reported as this task's failure, like a throwing execute. */
    private void executeHooks(RoutedTuple tuple, long nanos) {
        BoltExecuteInfo info = new BoltExecuteInfo(tuple, taskId, nanos < 0 ? null : nanos / 1_000_000);
        try {
            for (ITaskHook hook : hooks) {
                hook.boltExecute(info);
            }
        } catch (Throwable t) {
            acks.held.failAll();
            failed(t, "task hook boltExecute");
        }
    }

    /**
     * Fused tasks are watched: a long enough streak of slow sampled executes ({@link SlowStreak}) means this task holds
     * its producer back, so it asks for a thread of its own. After a slow sample the next tuple is timed too, so every
     * execute of a streak is timed and one fast execute ends it.
     */
    private void checkSpeed(long start, long nanos) {
        int verdict = slowStreak.sample(start, nanos);
        if (verdict == SlowStreak.MOVE) {
            inbox.requestDefuse(this, "it runs slower than its producer");
        } else if (verdict == SlowStreak.SLOW) {
            sampleCounter = samplePeriod - 1;
        }
    }

    public void executeTick(int frequencySecs) {
        if (tickLink == null) {
            tickLink = new Link(host.tupleContext(), Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID,
                Constants.SYSTEM_TICK_STREAM_ID, this, -1);
        }
        execute(tickLink, new Values(frequencySecs), UNANCHORED);
    }

    /**
     * The bolt's emits. This task is its bolt's collector itself, with no object in between: a fused chain inlines
     * only while it stays within the JIT's inlining depth, and every call level counts.
     */
    @Override
    public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> values) {
        int directTask = takeDirectTask();
        StreamRoute r = route(streamId);
        r.checkValues(values, this);
        Link single = chooseTargets(r, values, directTask);
        List<Integer> out = single != null ? single.targetTasks : chosenTasks;
        int n = single != null ? 1 : targetCount;
        // acking first: with acking off the anchors are never touched, so the collection Storm's OutputCollector made
        // for them (and the anchor tuple in it) can be scalar-replaced
        if (acking && anchors != null && !anchors.isEmpty()) {
            sendAnchored(anchors, values, single, n);
        } else if (single != null) {
            outbox.send(single, values, UNANCHORED);
        } else {
            for (int i = 0; i < n; i++) {
                outbox.send(targets[i], values, UNANCHORED);
            }
        }
        stats.emitted(r.index, n);
        if (!hooks.isEmpty()) {
            emitHooks(values, streamId, out);
        }
        return out;
    }

    @Override
    public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
        directTo(taskId, streamId);
        emit(streamId, anchors, tuple);
    }

    /** @param single the only target, or null when the targets are in {@link #targets} */
    private void sendAnchored(Collection<Tuple> anchors, List<Object> values, Link single, int n) {
        for (int i = 0; i < n; i++) {
            outbox.send(single != null ? single : targets[i], values, anchoredIds.of(anchors, this));
        }
    }

    /** The collector's ack, fail and resetTimeout (the bolt's own collector calls {@link #acks} directly). */
    @Override
    public void ack(Tuple input) {
        acks.ack(input);
    }

    @Override
    public void fail(Tuple input) {
        acks.fail(input);
    }

    @Override
    public void resetTimeout(Tuple input) {
        acks.resetTimeout(input);
    }

    /** Executor thread, every half message timeout: drops held tuples whose trees are all done (see HeldTuples). */
    public void pruneHeld() {
        acks.held.prune();
    }

    /** Tuples held now (tests; executor thread, or once the executor has stopped). */
    int heldCount() {
        return acks.held.count();
    }

    /**
     * storm-client's ShellBolt reports its subprocess's death from its own threads; in local mode it does not exit
     * the JVM as a Storm worker would, and its reader thread keeps dying, logging and reporting, as fast as it can,
     * until the instance is cleaned up. So such a report fails the task at once and cleans the instance up (which
     * stops those threads and the subprocess), as a worker's exit and restart would. Errors the subprocess itself
     * reports ("Shell Process Exception") are only recorded, as in Storm.
     */
    @Override
    void errorReported(Throwable error) {
        IBolt current = bolt;
        if (current instanceof ShellBolt && !String.valueOf(error.getMessage()).startsWith("Shell Process Exception")) {
            inbox.postForTask(this, () -> {
                if (up && bolt == current) {
                    acks.held.failAll();
                    failed(error, "its subprocess (ShellBolt died)");
                    cleanupQuietly();
                }
            });
        }
    }

    /** Restarts after a failure: a fresh instance, prepared like the first. */
    @Override
    void restart() {
        acks.held.failAll();
        cleanupQuietly();
        start();
    }

    private void cleanupQuietly() {
        IBolt old = bolt;
        bolt = null;
        if (old != null) {
            endQuietly(old::cleanup);
        }
        cleanupHooks();
    }

    @Override
    public void shutdown() {
        up = false;
        cleanupQuietly();
    }
}
