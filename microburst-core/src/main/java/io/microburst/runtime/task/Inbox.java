package io.microburst.runtime.task;

import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import io.microburst.reliability.TupleTree;
import io.microburst.runtime.clock.TurnBudget;
import org.apache.storm.tuple.MessageId;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.MpscChunkedArrayQueue;
import org.jctools.util.Pow2;

/**
 * The receiving side of one executor: what other threads put in for it (batches from executors, single tuples from
 * threads of the user's own, mail) and what it has queued for itself (a self-subscription's tuples, trees completed
 * on its own thread), with the drains that execute them and the park/wake handshake.
 *
 * <p>Threading: {@link #batches}, the foreign queue, {@link #post}, {@link #offer}, {@link #wake} and the volatile
 * fields accept any thread; everything else belongs to the executor's own thread. The thread is set once, before any
 * executor of the topology starts (Thread.start orders that write before every reader).
 *
 * <p>Public for the executor loop ({@code runtime.executor}, which drains it on its own thread) and the topology
 * ({@code runtime.topology}: mail, stop, queue metrics from any thread); the threading above holds for every caller.
 */
public final class Inbox {
    static final int DRAIN_CHUNK = 16;

    final int index;
    final String name;
    /** Batches from other executors; as many slots as it takes to hold the configured queue size in full batches. */
    final MpscArrayQueue<Batch> batches;
    /**
     * Tuples emitted from threads that are not executors (user code with threads of its own); bounded by the queue
     * size, its array grows in chunks as it fills, since most executors never see such a tuple.
     */
    final MpscChunkedArrayQueue<RoutedTuple> foreign;
    private final Mail mail = new Mail();
    /** Tuples for another task of this executor (a self-subscription), so an executor never blocks on itself. */
    final ArrayDeque<RoutedTuple> local = new ArrayDeque<>();
    /** Fused tasks to move to executors of their own after this turn, with the reason for the log. */
    private final Map<BoltTask, String> defuseRequests = new LinkedHashMap<>();
    final int drainLimit;
    private final int batchSize;
    private final Switchboard board;
    /** This executor's outbox: a tuple for a task that moved away is sent on through it. */
    private Outbox outbox;
    /**
     * 1 when this executor's last executes were slow (see {@link TurnBudget#slowCalls}): a drain takes one tuple a
     * chunk and its emits are handed over at once. Starts at 1: nothing is known of the executes before the first
     * returns. Executor thread.
     */
    private int slowExecutes = 1;
    /** The inbox batch being executed, and the index of its next tuple. */
    Batch current;
    int position;
    /** What {@link Batch#readAhead} read, kept so that its reads stay. Executor thread. */
    private int readAhead;
    private final MessagePassingQueue.Consumer<RoutedTuple> executeOne = this::execute;

    /** Written once before any executor of the topology starts; read by producers to wake this one. */
    private Thread thread;
    /** True while the executor parks or is about to (written by its own thread, read by producers to wake it). */
    private volatile boolean sleeping;
    private volatile boolean stopRequested;
    /** Set with a stop request that first lets the executor finish what already waits in its queues. */
    private volatile boolean drainOnStop;
    /** True when this executor runs spouts (set before its thread starts). */
    private boolean runsSpouts;
    /**
     * When this executor's spouts are polled next, while they wait as their wait strategy says (written by its own
     * thread just before it parks, read by idle bolts elsewhere); a time already past while they may be polled any
     * moment.
     */
    private volatile long nextPollNanos = System.nanoTime();
    /** True when this executor was parked for under a tenth of its last balance window (see Balancer). */
    private volatile boolean busy;

    public Inbox(int index, String name, int queueSize, int batchSize, Switchboard board) {
        this.index = index;
        this.name = name;
        this.board = board;
        this.batchSize = batchSize;
        int tuples = Math.max(2, queueSize);
        this.batches = new MpscArrayQueue<>(Math.max(2, tuples / batchSize));
        int foreignMax = Math.max(4, tuples);
        this.foreign = new MpscChunkedArrayQueue<>(Math.min(256, Pow2.roundToPowerOfTwo(foreignMax) / 2), foreignMax);
        this.drainLimit = Math.max(1, Math.min(256, tuples));
    }

    /** How many tuples the queue holds when full (in full batches), for the receive queue metrics. Any thread. */
    public int capacityTuples() {
        return batches.capacity() * batchSize;
    }

    /**
     * About how many tuples wait (batches count as full), for the receive queue metrics; any thread, racy and cheap.
     */
    public int populationTuples() {
        return batches.size() * batchSize + foreign.size();
    }

    public void connect(Outbox own, boolean spouts) {
        this.outbox = own;
        this.runsSpouts = spouts;
    }

    public void setThread(Thread t) {
        thread = t;
    }

    public Thread thread() {
        return thread;
    }

    boolean isOwnThread() {
        return Thread.currentThread() == thread;
    }

    /** Takes mail (commands, trees completed elsewhere) and trees completed on this thread; returns how many. */
    public int drainMail() {
        return mail.drain();
    }

    /**
     * Executes up to {@link #drainLimit} queued tuples, in chunks, stopping early once a millisecond has passed, so a
     * slow bolt still reads its mail (ticks, timeout stamps, a stop) often. A batch left half done is resumed on the
     * next turn.
     *
     * <p>The clock (about 25 ns a read here) is read at the start, after each chunk until the pace shows that a whole
     * drain limit of tuples fits in the budget, and at the end. Slow executes (see {@link TurnBudget#slowCalls}) end
     * the drain, so what they emitted is handed over at once, and make the next drains take one tuple a chunk and hand
     * each emit over as it happens (see {@link Outbox#pace}): a tuple never waits for an execute that emitted it and
     * then blocked. A drain whose executes are fast again goes back to chunks and batches. The time decisions are
     * arithmetic, not branches (see {@link TurnBudget}).
     */
    public int drainInbox() {
        boolean foreignLeft = !foreign.isEmpty();
        if (current == null && !foreignLeft && batches.isEmpty()) {
            return 0; // no clock read: a spout's executor asks on every turn
        }
        int slow = slowExecutes;
        outbox.pace(slow);
        int chunk = DRAIN_CHUNK - (DRAIN_CHUNK - 1) * slow;
        int done = 0;
        int limit = drainLimit;
        int timed = 1;
        long start = outbox.userClock(); // hand-overs (unparks, waits for room) are not the executes' time
        while (done < limit) {
            if (foreignLeft) {
                int n = foreign.drain(executeOne, chunk);
                foreignLeft = n == chunk;
                done += n;
            } else {
                Batch b = current;
                if (b == null) {
                    b = batches.relaxedPoll();
                    if (b == null) {
                        break;
                    }
                    current = b;
                    position = 0;
                }
                int from = position;
                int to = Math.min(b.size, from + chunk);
                position = to;
                readAhead += b.readAhead(from, to);
                for (int i = from; i < to; i++) {
                    Link link = b.link(i);
                    BoltTask target = link.target;
                    if (target.inbox != this) {
                        forward(link, b.values[i], b.id(i));
                    } else if (target.oddDepth) {
                        target.executeOdd(link, b.values[i], b.id(i));
                    } else {
                        target.executeEven(link, b.values[i], b.id(i));
                    }
                }
                if (to == b.size) {
                    current = null;
                    b.recycle();
                }
                done += to - from;
            }
            // the clock is read once a chunk is done, arithmetically: one branch with both outcomes in every drain (a
            // part batch, sent by a busy stream at random moments, made a branch of its own a trap: see TurnBudget)
            if ((timed & TurnBudget.exceeds(done, chunk - 1)) != 0) {
                long elapsed = outbox.userClock() - start;
                // over the budget, or at a slow pace, the limit drops to what is done and the loop ends
                int slowNow = TurnBudget.slowCalls(elapsed, done);
                limit -= (limit - done) * (TurnBudget.exceeds(elapsed, TurnBudget.TURN_BUDGET_NANOS) | slowNow);
                // back to chunks once a whole chunk of executes was fast (not one or two fast among slow ones)
                slow = slowNow | (slow & TurnBudget.exceeds(DRAIN_CHUNK, done));
                chunk = DRAIN_CHUNK - (DRAIN_CHUNK - 1) * slow;
                outbox.pace(slow);
                timed = TurnBudget.drainStaysTimed(elapsed, done, drainLimit) | slow;
            }
        }
        // the pace of a drain that executed something decides how the next one hands over; an empty one leaves it
        int measured = TurnBudget.exceeds(done, 0);
        long elapsed = outbox.userClock() - start;
        slowExecutes = (TurnBudget.slowCalls(elapsed, done) & measured) | (slowExecutes & (measured ^ 1));
        return done;
    }

    public int drainLocal() {
        int n = 0;
        RoutedTuple t;
        while (n < drainLimit && (t = local.poll()) != null) {
            execute(t);
            n++;
        }
        return n;
    }

    private void execute(RoutedTuple tuple) {
        BoltTask target = tuple.target();
        if (target.inbox != this) {
            forward(tuple.link, tuple.getValues(), tuple.getMessageId());
        } else {
            target.execute(tuple);
        }
    }

    /**
     * A tuple queued here for a task that has since moved to an executor of its own (a sliced task that proved slow, or
     * one from a user's thread that raced a move): it goes on to that executor, never executed on this thread. The
     * link already names the new executor here: a task moves once, on the thread of the executor it leaves, which
     * updates its links itself; any other thread that reads an old index sends to that executor, which forwards.
     */
    private void forward(Link link, List<Object> values, MessageId id) {
        outbox.send(link, values, id);
    }

    /** Posts a command or a completed tuple tree to run on this executor's thread. Any thread; never blocks. */
    public void post(Object command) {
        mail.offer(command);
        wake();
    }

    /** Posts an action on one task to the thread that runs the task when the action runs (it follows a move). */
    public void postForTask(Resident task, Runnable action) {
        post((Runnable) () -> {
            Inbox now = task.inbox();
            if (now != this) {
                now.postForTask(task, action);
            } else {
                action.run();
            }
        });
    }

    /**
     * A tree of one of this executor's spouts completed. On this thread (a fused or local bolt acked) it waits in a
     * plain local queue; from another thread it goes through the mailbox. Either way the spout hears of it on a later
     * turn, never inside its own nextTuple.
     */
    void completeTree(TupleTree tree) {
        if (Thread.currentThread() == thread) {
            mail.completedHere(tree);
        } else {
            post(tree);
        }
    }

    /** True when a fused task asked to move this turn. Executor thread. */
    public boolean hasDefuseRequests() {
        return !defuseRequests.isEmpty();
    }

    /** The fused tasks that asked to move, in order, with why; the executor clears it once it acted. Executor thread. */
    public Map<BoltTask, String> defuseRequests() {
        return defuseRequests;
    }

    /** A fused task of this executor moves to an executor of its own after this turn. Executor thread. */
    public void requestDefuse(BoltTask task, String why) {
        defuseRequests.putIfAbsent(task, why);
    }

    /** A tuple from a thread of the user's own; waits while the queue is full (backpressure). */
    void offer(RoutedTuple tuple) {
        int waits = 0;
        while (!foreign.offer(tuple)) {
            if (board.isHalted()) {
                board.dropped(1);
                return;
            }
            wake();
            Outbox.backOff(waits++);
        }
        wake();
    }

    /**
     * The executor is about to park (true: producers now unpark it after a hand-over) or has woken (false). Executor
     * thread only.
     */
    public void setSleeping(boolean parking) {
        sleeping = parking;
    }

    /** This executor's spouts are polled next at {@code nanos} (a {@link System#nanoTime()} reading). Executor thread. */
    public void setNextPoll(long nanos) {
        nextPollNanos = nanos;
    }

    /** When this executor's spouts are polled next (a {@link System#nanoTime()} reading). Any thread. */
    long nextPollNanos() {
        return nextPollNanos;
    }

    /** Whether this executor was busy in its last balance window (see Balancer). Written by its own thread only. */
    public void setBusy(boolean busy) {
        this.busy = busy;
    }

    /** True when this executor was parked for under a tenth of its last balance window. Any thread. */
    boolean busy() {
        return busy;
    }

    /** True while the executor is parked or about to park: a hand-over then unparks it. Any thread. */
    boolean sleeping() {
        return sleeping;
    }

    /** Wakes the executor if it is parked. Any thread. */
    void wake() {
        if (sleeping) {
            LockSupport.unpark(thread);
        }
    }

    /** True when nothing waits here: the executor may park. Executor thread. */
    public boolean nothingWaiting() {
        return batches.isEmpty() && foreign.isEmpty() && current == null && mail.isEmpty() && local.isEmpty()
            && !stopRequested;
    }

    /** Asks the thread to stop after its current turn (cutting short a drain asked for earlier). Any thread. */
    public void requestStop() {
        requestStop(false);
    }

    /**
     * Asks the thread to stop once a turn finds nothing to do: what already waits in its queues is executed first.
     * Any thread; {@link #requestStop()} cuts the drain short.
     */
    public void requestDrainingStop() {
        requestStop(true);
    }

    private void requestStop(boolean drain) {
        drainOnStop = drain;
        stopRequested = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    public boolean stopRequested() {
        return stopRequested;
    }

    /** True while a stop asked for by {@link #requestDrainingStop()} has not been cut short. */
    public boolean drainOnStop() {
        return drainOnStop;
    }

    /**
     * Nanoseconds until this executor's spouts are polled next, counted from {@code now}: 0 if they may be polled any
     * moment (they are not waiting out their wait strategy), and -1 if it runs no spouts. Any thread.
     */
    public long untilPoll(long now) {
        if (!runsSpouts) {
            return -1;
        }
        return Math.max(0, nextPollNanos - now);
    }

    /** Stamps the trees of tracked tuples waiting here (see {@link QueuedTrees}). Executor thread. */
    public void touchQueued(long now) {
        QueuedTrees.touch(batches, current, position, foreign, local, now);
    }

    @Override
    public String toString() {
        return name;
    }

    /** The index of this inbox's executor in the topology. Any thread. */
    public final int index() {
        return index;
    }
}
