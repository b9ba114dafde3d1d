package io.microburst.runtime.executor;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.task.BoltTask;
import io.microburst.runtime.task.Inbox;
import io.microburst.runtime.task.Outbox;
import io.microburst.runtime.task.SpoutTask;
import io.microburst.runtime.task.StopScope;
import io.microburst.runtime.task.Switchboard;
import io.microburst.runtime.task.TaskRunner;
import org.apache.storm.metric.api.IMetric;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread running one or more tasks, as an agent: {@link #doWork()} takes control mail, a bounded batch of input
 * tuples ({@link Inbox}) and spout calls, then hands everything it produced to its consumers ({@link Outbox}: a batch
 * leaves when it is full or when this executor runs out of work, never on a timer); the loop in {@link #run()} is
 * {@code idle(doWork())}, with the backing off in {@link IdleStrategy}. Moving a fused task to a thread of its own
 * happens here, between turns, so no user code is on the stack.
 *
 * <p>Threading: the loop's state belongs to the executor's own thread; other threads reach it only through its inbox
 * ({@link #inbox()}: tuples, mail, stop). {@link #tasks()} is volatile for readers of statistics.
 */
public final class Executor implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(Executor.class);

    private final ExecutorHost host;
    final int index;
    final String name;
    private final Inbox inbox;
    private final Outbox outbox;
    private final Balancer balancer;
    private IdleStrategy idle;
    private volatile TaskRunner[] tasks = new TaskRunner[0];
    private SpoutTask[] spouts = new SpoutTask[0];
    private boolean tasksStarted;
    /** The topology's class loader: the context class loader of this executor's thread. */
    private ClassLoader loader;
    /** True when this turn called a spout's nextTuple; on an idle turn, that means the spouts had nothing to emit. */
    private boolean spoutsPolled;
    private final Switchboard board;
    private final StopLatches ends = new StopLatches();
    /**
     * True for a shared thread carrying several executor groups (see {@code ThreadLayout#share}); set before the thread
     * starts. A slow task leaves it for a thread of its own only while the thread budget allows.
     */
    private boolean carrier;
    /** A question from {@code Quiescence}: answered on an idle turn (see {@link #answerIdleProbe}). */
    private final IdleProbeSlot idleProbe = new IdleProbeSlot();
    /** Turns that did work so far (this thread only; {@code Quiescence} gets it through a probe's answer). */
    private long workTurns;
    /** Storm's per-executor maps handed to every task context of this executor. */
    final Map<String, Object> executorData = new HashMap<>();
    final Map<Integer, Map<Integer, Map<String, IMetric>>> registeredMetrics = new HashMap<>();

    public Executor(ExecutorHost host, Switchboard board, int index, String name, int queueSize, int batchSize) {
        this.host = host;
        this.board = board;
        this.index = index;
        this.name = name;
        int tuples = Math.max(2, queueSize);
        int batch = Math.max(1, Math.min(batchSize, tuples));
        this.inbox = new Inbox(index, name, queueSize, batch, board);
        this.outbox = new Outbox(inbox, board, batch);
        this.balancer = new Balancer(inbox, board, host, Math.max(2, queueSize));
    }

    /** Makes this executor a carrier of several executor groups; before its thread starts (the planning thread). */
    public void makeCarrier() { carrier = true; }

    /** Whether this executor carries several executor groups (see {@link #makeCarrier}). Planning thread. */
    public boolean isCarrier() { return carrier; }

    public Inbox inbox() {
        return inbox;
    }

    public Outbox outbox() {
        return outbox;
    }

    /** The tasks were opened or prepared by the executor they come from (see {@link ExecutorHost#defuse}). */
    public void adoptStartedTasks() { tasksStarted = true; }

    /** Sets the tasks, before the thread starts. */
    public void setTasks(List<TaskRunner> runners, ClassLoader loader) {
        this.tasks = runners.toArray(new TaskRunner[0]);
        this.spouts = runners.stream().filter(t -> t instanceof SpoutTask).toArray(SpoutTask[]::new);
        inbox.connect(outbox, spouts.length > 0);
        this.idle = new IdleStrategy(inbox, outbox, board, spouts, loader);
        this.loader = loader;
    }

    public TaskRunner[] tasks() {
        return tasks;
    }

    /** The tasks from now on: started ones that came back (an undone cut), or none; own thread, between turns. */
    public void runTasks(TaskRunner[] now) {
        tasks = now;
    }

    /**
     * Creates the thread. All executors of a topology create theirs before any starts, so every executor sees every
     * other's thread (Thread.start orders the writes before it).
     */
    public void createThread() {
        Thread t = new Thread(this, name);
        t.setDaemon(true);
        t.setContextClassLoader(loader);
        inbox.setThread(t);
        outbox.setThread(t);
    }

    /** Starts the thread made by {@link #createThread()}. */
    public void start() {
        inbox.thread().start();
    }

    @Override
    public void run() {
        StopScope stopScope = StopScope.enter();
        balancer.start();
        try {
            boolean run = tasksStarted || host.startGate().startTasks(tasks, inbox);
            while (run && !inbox.stopRequested()) {
                int work;
                try {
                    work = doWork();
                } catch (Throwable t) {
                    turnFailed(t);
                    work = 1;
                }
                if (work > 0) {
                    workTurns++;
                    idle.workDone();
                } else if (idleProbe.waiting() && answerIdleProbe()) {
                    continue; // a probe asks for one more whole turn, begun after it was seen
                } else if (spouts.length == 0) {
                    idle.idle(spoutsPolled);
                } else {
                    idleWithSpouts();
                }
            }
            if (run) { // else stopped before the start gate opened: the tasks that did not start have no turn
                drainBeforeStop();
            }
            outbox.flushAll();
        } catch (Throwable t) {
            LOG.error("Executor {} stopped by an unexpected error", name, t);
            host.reportError(tasks.length > 0 ? tasks[0] : null, t);
        } finally {
            ends.loopEnded();
            stopScope.ending();
            for (TaskRunner task : tasks) {
                task.shutdown();
            }
            ends.stopped();
        }
    }

    /**
     * An idle turn of an executor with spouts, timed (idle turns only, never per tuple) for Storm's skipped-time
     * metrics of its spouts (see {@link SpoutTask#idled}).
     */
    private void idleWithSpouts() {
        long before = System.nanoTime();
        idle.idle(spoutsPolled);
        long spent = System.nanoTime() - before;
        boolean inactive = !board.isActive();
        boolean heldBack = !inactive && !board.isHalted() && (!board.spoutsMayRun() || outbox.overflowing());
        for (SpoutTask spout : spouts) {
            spout.idled(spent, inactive, heldBack);
        }
    }

    /**
     * After a draining stop request: runs turns until one finds nothing to do, so tuples already queued here are
     * executed (and what they emit is sent on) before the tasks close. The caller stops this executor's producers
     * first; {@link #requestStop()} cuts the drain short.
     */
    private void drainBeforeStop() {
        while (inbox.drainOnStop()) {
            int work;
            try {
                work = doWork();
            } catch (Throwable t) {
                turnFailed(t);
                work = 1;
            }
            if (work == 0) {
                return;
            }
        }
    }

    /** A turn threw outside the guards around user code (see {@link LoopFailure}). */
    private void turnFailed(Throwable error) {
        LoopFailure.failTasks(name, tasks, host, error);
    }

    /** An idle turn with a probe waiting (see {@link IdleProbeSlot#armOrAnswer}): true asks for another turn. */
    private boolean answerIdleProbe() {
        return idleProbe.armOrAnswer(this, workTurns);
    }

    /** One turn of the loop; returns how much work it did. */
    int doWork() {
        int work = inbox.drainMail();
        if (outbox.overflowing()) {
            outbox.retryOverflow();
        }
        work += inbox.drainLocal();
        work += inbox.drainInbox();
        outbox.flushAll();
        spoutsPolled = false;
        if (spouts.length > 0 && board.spoutsMayRun()) {
            int batchSize = outbox.batchSize();
            for (SpoutTask spout : spouts) {
                work += spout.runNextTuples(batchSize);
                spoutsPolled |= spout.polled();
            }
            outbox.flushAll();
        }
        if (inbox.hasDefuseRequests()) {
            defuseRequested();
        }
        return work;
    }

    /**
     * Every {@link Balancer#BALANCE_PERIOD_MS}, on this executor's thread (posted by the topology's timer). Time spent
     * waiting for room in a full consumer counts as idle, as parked time does: that thread is not what holds the
     * topology back, and a core it leaves waiting is free for a cut elsewhere.
     */
    public void balance() {
        balancer.balance(tasks, idle.parkedNanos() + outbox.blockedNanos(), idle.parkedNanos());
    }

    /** The pipelining of this executor (its own thread only). */
    Balancer balancer() {
        return balancer;
    }

    /** Moves the fused tasks that asked to leave (see {@link Defusion}). */
    private void defuseRequested() {
        tasks = Defusion.act(this, inbox, tasks, host);
    }

    /**
     * Stamps the trees of tracked tuples that are waiting in a queue (this executor's inbox, its local queue, its
     * overflow lists), so that time spent waiting behind a slow consumer never times a tree out (STORM-2359), and
     * lets its bolts drop held tuples whose trees are done. Runs on this executor's thread, every half message timeout.
     */
    public void touchQueued() {
        long now = SharedTimer.stampNanos();
        inbox.touchQueued(now);
        outbox.touchQueued(now);
        for (TaskRunner t : tasks) {
            if (t instanceof BoltTask b) {
                b.pruneHeld();
            }
        }
    }

    /** Posts a command to run on this executor's thread. Any thread; never blocks. */
    public void post(Runnable command) {
        inbox.post(command);
    }

    /** Nanoseconds this executor has waited for room in full queues so far. Any thread. */
    public long blockedNanos() {
        return outbox.blockedNanos();
    }

    /** Nanoseconds this executor has spent parked so far. Any thread (a stale value is a slightly older one). */
    public long parkedNanos() {
        IdleStrategy i = idle;
        return i == null ? 0 : i.parkedNanos();
    }

    /** Times this executor has parked; read by another thread only once the executor has stopped. */
    long parks() {
        return idle.parks();
    }

    /** See {@link Inbox#untilPoll}. */
    long untilPoll(long now) {
        return inbox.untilPoll(now);
    }

    /** Asks the thread to stop after its current turn; tasks are closed on their own thread. */
    public void requestStop() {
        inbox.requestStop();
    }

    /** Asks the thread to stop once it has executed what already waits in its queues (see {@link #drainBeforeStop}). */
    public void requestDrainingStop() {
        inbox.requestDrainingStop();
    }

    /**
     * Waits until the thread has ended or {@code deadlineNanos} (a {@link System#nanoTime()} reading) has passed; true
     * if it ended. A thread that was never started counts as ended: there is nothing to wait for.
     */
    public boolean awaitStopUntil(long deadlineNanos) throws InterruptedException {
        return ends.awaitStop(inbox.thread(), deadlineNanos);
    }

    /** As {@link #awaitStopUntil}, until the loop ended (see {@link StopLatches}); its tasks may still be closing. */
    public boolean awaitLoopEndUntil(long deadlineNanos) throws InterruptedException {
        return ends.awaitLoopEnd(inbox.thread(), deadlineNanos);
    }

    /**
     * True when this executor's thread is inside a call to one of its spouts (see {@link StuckSpouts#callFrame}). Reads
     * the thread's stack, so only for stops.
     */
    public boolean inSpoutCall() {
        return spoutCallFrame() != null;
    }

    /** See {@link StuckSpouts#callFrame}; null too when this executor runs no spouts or its thread is not running. */
    private StackTraceElement spoutCallFrame() {
        Thread t = inbox.thread();
        if (spouts.length == 0 || t == null || isStoppedForGood() || t.getState() == Thread.State.NEW) {
            return null;
        }
        return StuckSpouts.callFrame(t);
    }

    /**
     * Gives up on this executor's thread, found inside a spout call 100 ms after its interrupt (see
     * {@code StopSequence}): bars any further call from it into its spouts, then, if it is still inside a spout call,
     * closes them from the calling thread. If it came back in time, it closes them itself, on its own thread.
     *
     * @return the spout tasks closed here and the call the thread is in; null if it came back
     */
    public ReleasedSpouts releaseStuckSpouts() {
        return StuckSpouts.giveUp(spouts, this::spoutCallFrame);
    }

    /**
     * Interrupts the thread, if it still runs: it may be stuck in user code that waits. What a task's call throws
     * because of it is the stop, not a failure (see {@link TaskRunner#failed}).
     */
    public void interruptForStop() {
        Thread t = inbox.thread();
        if (t != null && !ends.isStopped() && t.getState() != Thread.State.NEW) {
            for (TaskRunner task : tasks) {
                task.markInterruptedByStop();
            }
            t.interrupt();
        }
    }

    public boolean isStoppedForGood() {
        return ends.isStopped();
    }

    /** The executor's name (its thread's). Any thread. */
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }

    /** This executor's index in the topology. Any thread. */
    public final int index() {
        return index;
    }

    /**
     * Storm's per-executor map of registered metrics, shared by the contexts of its tasks. Their executor's thread, and
     * the metrics thread that reads them.
     */
    public final Map<Integer, Map<Integer, Map<String, IMetric>>> registeredMetrics() {
        return registeredMetrics;
    }

    /** Storm's per-executor data map, shared by the contexts of its tasks. Their executor's thread. */
    public final Map<String, Object> executorData() {
        return executorData;
    }

    /** Leaves a question of {@code Quiescence} for this executor, answered on an idle turn. Any thread. */
    public void askIdle(IdleProbe probe) {
        idleProbe.ask(probe);
    }
}
