package io.microburst.runtime;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import io.microburst.reliability.TrackedMessageId;
import io.microburst.reliability.TupleTree;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.metric.api.IMetric;
import org.apache.storm.policy.IWaitStrategy;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.MpscChunkedArrayQueue;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;
import org.jctools.util.Pow2;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread running one or more tasks, as a batch processor: each turn takes control mail, a bounded batch of input
 * tuples, and spout calls, then hands everything it produced to its consumers (smart batching: a batch leaves when it
 * is full or when this executor runs out of work, never on a timer), then backs off if it found nothing to do.
 *
 * <p>Threading: {@link #inbox}, {@link #foreign} and {@link #mailbox} accept any producer; every other field belongs to
 * the executor's own thread. Executors hand each other whole {@link Batch}es through {@link #inbox}; a thread of the
 * user's own hands over single tuples through {@link #foreign}. A producer that finds a consumer's queue full waits
 * (backpressure); it wakes a parked consumer after every hand-over.
 */
public final class Executor implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(Executor.class);
    private static final int MAIL_LIMIT = 4096;
    private static final int DRAIN_CHUNK = 16;
    static final long TURN_BUDGET_NANOS = 1_000_000;
    private static final int SPIN_TURNS = 64;
    private static final int YIELD_TURNS = 8;
    /**
     * The first park. Linux lets a parked thread sleep at least its timer slack (50 µs by default) whatever it asks for,
     * so shorter parks would only add wake-ups: each costs CPU, and none brings a tuple sooner (producers unpark
     * their consumers, and mail unparks its executor).
     */
    private static final long MIN_PARK_NANOS = 50_000;
    private static final long SPOUT_MAX_PARK_NANOS = 1_000_000;
    /**
     * How long an executor without spouts parks at a time while it is warm: for its first {@link #WARM_PARKS} parks
     * after work, unless every spout of the topology waits out its wait strategy; then it parks until the first of
     * them is polled next, since nothing new enters the topology before that, and a tuple from anywhere else still
     * unparks it. A thread that has slept long answers an unpark slowly: on this project's benchmark machine (a virtual
     * one) a bolt unparked out of a 50 ms park ran 297-345 µs after its tuple at p99, and one that woke itself at least
     * every 175 µs (this park plus Linux's 50 µs timer slack) ran 16-26 µs after it. The extra wake-ups cost about 1% of
     * a core while a stream of 1 tuple per millisecond lasts (see ARCHITECTURE.md, "How fast a parked thread wakes").
     */
    static final long WARM_PARK_NANOS = 125_000;
    /**
     * Parks an executor without spouts stays warm for after work: about 11 ms at {@link #WARM_PARK_NANOS}, so that a
     * stream of 100 tuples a second or more keeps its bolts warm, and a bolt that hears from nobody backs off soon.
     */
    static final int WARM_PARKS = 64;
    private static final long BOLT_MAX_PARK_NANOS = 50_000_000;
    /** How often an executor with fused tasks checks whether its chain should be cut in two (see {@link #balance}). */
    static final long BALANCE_PERIOD_MS = 1000;
    private static final double MIN_CUT_SHARE = 0.25;
    private static final double MAX_CUT_SHARE = 0.75;
    /** A fused task cheaper than this per tuple is not worth a hand-over between threads (about 0.1 µs of CPU). */
    static final long MIN_CUT_EXECUTE_NANOS = 1_000;
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    final TopologyRuntime topology;
    final int index;
    final String name;
    /** Batches from other executors; as many slots as it takes to hold the configured queue size in full batches. */
    final MpscArrayQueue<Batch> inbox;
    /**
     * Tuples emitted from threads that are not executors (user code with threads of its own); bounded by the queue
     * size, its array grows in chunks as it fills, since most executors never see such a tuple.
     */
    private final MpscChunkedArrayQueue<RoutedTuple> foreign;
    /**
     * Full batches this executor produced, given back empty by their consumers for reuse: a one-way stream between
     * executors then allocates no batches in steady state. Bounded by a consumer's queue (at least 64 batches), so a
     * queue's worth of batches coming back fits; a batch that finds it full is left to the collector.
     */
    private final MpscArrayQueue<Batch> freeBatches;
    /** The inbox batch being executed, and the index of its next tuple. */
    private Batch current;
    private int position;
    private final MpscUnboundedXaddArrayQueue<Object> mailbox = new MpscUnboundedXaddArrayQueue<>(256);
    private final ArrayDeque<RoutedTuple> local = new ArrayDeque<>();
    private final ArrayDeque<TupleTree> completed = new ArrayDeque<>();
    private final int drainLimit;
    private volatile TaskRunner[] tasks = new TaskRunner[0];
    private boolean tasksStarted;
    /** Fused tasks to move to executors of their own after this turn, with the reason for the log. */
    private final Map<BoltTask, String> defuseRequests = new java.util.LinkedHashMap<>();
    private SpoutTask[] spouts = new SpoutTask[0];
    /** What to do while the spouts have nothing to emit (Storm's spout wait strategy); null without spouts. */
    private SpoutWait spoutWait;
    /** True when this turn called a spout's nextTuple; on an idle turn, that means the spouts had nothing to emit. */
    private boolean spoutsPolled;
    /** The counter a user's wait strategy keeps, as Storm keeps it: 0 after a turn that did work. */
    private int spoutWaitCount;

    // Outbox: producer-side batches, one per consumer executor (owner thread only).
    private final int batchSize;
    private Batch[] batches;
    private int[] dirty;
    private boolean[] listed;
    private int dirtyCount;
    /** Consumers that can feed this executor back (see TopologyRuntime.cycleFlags): a full queue there never
     * blocks, batches wait here. */
    private boolean[] cycleDest;
    private ArrayDeque<Batch>[] overflow;
    private int overflowing;

    private final MessagePassingQueue.Consumer<RoutedTuple> executeOne = this::execute;
    private final MessagePassingQueue.Consumer<Object> handleMail = this::handleMail;
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** Storm's per-executor maps handed to every task context of this executor. */
    final Map<String, Object> executorData = new HashMap<>();
    final Map<Integer, Map<Integer, Map<String, IMetric>>> registeredMetrics = new HashMap<>();
    /** Written once before any executor of the topology starts; read by producers to wake this one. */
    private Thread thread;
    private volatile boolean sleeping;
    /**
     * When this executor's spouts are polled next, while they wait as their wait strategy says (written by its own
     * thread just before it parks, read by idle bolts elsewhere); a time already past while they may be polled any
     * moment.
     */
    private volatile long nextPollNanos = System.nanoTime();
    private volatile boolean stopRequested;
    /** True while this executor found nothing to do on its last turn. */
    private volatile boolean quiet;
    private int idleTurns;

    // Pipelining (executor thread only, except busy).
    private long parkedNanos;
    /** Times this executor parked (its thread only; others read it once it has stopped). */
    private long parks;
    private long windowStartNanos;
    private long windowParkedNanos;
    /** True when this executor was parked for under a tenth of its last balance window. */
    private volatile boolean busy;
    private BoltTask cutCandidate;

    Executor(TopologyRuntime topology, int index, String name, int queueSize, int batchSize) {
        this.topology = topology;
        this.index = index;
        this.name = name;
        int tuples = Math.max(2, queueSize);
        this.batchSize = Math.max(1, Math.min(batchSize, tuples));
        this.inbox = new MpscArrayQueue<>(Math.max(2, tuples / this.batchSize));
        int foreignMax = Math.max(4, tuples);
        this.foreign = new MpscChunkedArrayQueue<>(Math.min(256, Pow2.roundToPowerOfTwo(foreignMax) / 2), foreignMax);
        this.freeBatches = new MpscArrayQueue<>(Math.max(64, inbox.capacity()));
        this.drainLimit = Math.max(1, Math.min(256, tuples));
    }

    @SuppressWarnings("unchecked")
    void setCycles(boolean[] cycleDest) {
        this.cycleDest = cycleDest;
        this.overflow = new ArrayDeque[cycleDest.length];
    }

    /** The tasks were opened or prepared by the executor they come from (see {@link TopologyRuntime#defuse}). */
    void adoptStartedTasks() {
        tasksStarted = true;
    }

    void setTasks(List<TaskRunner> runners, int executorCount) {
        this.tasks = runners.toArray(new TaskRunner[0]);
        this.spouts = runners.stream().filter(t -> t instanceof SpoutTask).toArray(SpoutTask[]::new);
        if (spouts.length > 0) {
            spoutWait = SpoutWait.of(spouts[0].component.conf(), topology.loader(), spouts[0].componentId());
        }
        this.batches = new Batch[executorCount];
        this.dirty = new int[executorCount];
        this.listed = new boolean[executorCount];
    }

    TaskRunner[] tasks() {
        return tasks;
    }

    /**
     * Creates the thread. All executors of a topology create theirs before any starts, so every executor sees every
     * other's thread (Thread.start orders the writes before it).
     */
    void createThread() {
        Thread t = new Thread(this, name);
        t.setDaemon(true);
        thread = t;
    }

    /** Starts the thread made by {@link #createThread()}. */
    void start() {
        thread.start();
    }

    @Override
    public void run() {
        windowStartNanos = System.nanoTime();
        try {
            if (!tasksStarted) {
                for (TaskRunner task : tasks) {
                    task.start();
                }
            }
            while (!stopRequested) {
                int work = turn();
                if (work > 0) {
                    idleTurns = 0;
                    spoutWaitCount = 0;
                    if (quiet) {
                        quiet = false; // a volatile write is a full fence on x86: only when it changes
                    }
                } else {
                    idle();
                }
            }
            flushAll();
        } catch (Throwable t) {
            LOG.error("Executor {} stopped by an unexpected error", name, t);
            topology.reportError(tasks.length > 0 ? tasks[0] : null, t);
        } finally {
            for (TaskRunner task : tasks) {
                task.shutdown();
            }
            stopped.countDown();
        }
    }

    /** One turn of the loop; returns how much work it did. */
    private int turn() {
        int work = mailbox.drain(handleMail, MAIL_LIMIT);
        TupleTree done;
        while ((done = completed.poll()) != null) {
            ((SpoutTask) done.owner()).finishTree(done);
            work++;
        }
        if (overflowing > 0) {
            retryOverflow();
        }
        work += drainLocal();
        work += drainInbox();
        flushAll();
        spoutsPolled = false;
        if (spouts.length > 0 && topology.spoutsMayRun()) {
            for (SpoutTask spout : spouts) {
                work += spout.runNextTuples(batchSize);
                spoutsPolled |= spout.polled;
            }
            flushAll();
        }
        if (!defuseRequests.isEmpty()) {
            defuseRequested();
        }
        return work;
    }

    boolean isBusy() {
        return busy;
    }

    /** A fused task of this executor moves to an executor of its own after this turn. */
    void requestDefuse(BoltTask task, String why) {
        defuseRequests.putIfAbsent(task, why);
    }

    /**
     * Pipelining, every {@link #BALANCE_PERIOD_MS} ms on this executor's thread. Fusion puts a whole chain on one
     * thread; when that thread is busy all the time, a core is left over, and one fused task (with the tasks fused
     * into it) takes between a quarter and three quarters of the thread's time at a microsecond or more per tuple, the
     * chain is cut there: that task moves to an executor of its own, as a slow one does, and the two halves run in
     * parallel, as Storm would run them. A cheaper task is not worth a hand-over between threads; a share outside that
     * range leaves one side doing nearly everything. The same choice in two windows in a row is needed, so a warm-up
     * window decides nothing alone.
     */
    void balance() {
        long now = System.nanoTime();
        long elapsed = now - windowStartNanos;
        long parked = parkedNanos - windowParkedNanos;
        windowStartNanos = now;
        windowParkedNanos = parkedNanos;
        busy = elapsed > 0 && parked < elapsed / 10;
        BoltTask best = null;
        double bestShare = 0;
        double bestDistance = Double.MAX_VALUE;
        for (TaskRunner t : tasks) {
            if (!(t instanceof BoltTask b) || !b.fused) {
                continue;
            }
            b.closeBalanceWindow(); // every window, so each covers one period
            if (!busy || b.windowMeanNanos < MIN_CUT_EXECUTE_NANOS) {
                continue;
            }
            double share = (double) b.windowSpentNanos / elapsed;
            if (share >= MIN_CUT_SHARE && share <= MAX_CUT_SHARE && Math.abs(share - 0.5) < bestDistance) {
                best = b;
                bestShare = share;
                bestDistance = Math.abs(share - 0.5);
            }
        }
        if (best == null || topology.busyExecutors() >= CORES) {
            cutCandidate = null;
        } else if (best == cutCandidate) {
            cutCandidate = null;
            requestDefuse(best, "it took " + Math.round(100 * bestShare) + "% of a thread that was never idle, and a core "
                + "was free");
        } else {
            cutCandidate = best;
        }
    }

    private void defuseRequested() {
        for (Map.Entry<BoltTask, String> request : defuseRequests.entrySet()) {
            BoltTask head = request.getKey();
            if (!head.fused || head.executor != this) {
                continue;
            }
            List<TaskRunner> moving = new java.util.ArrayList<>();
            moving.add(head);
            for (TaskRunner t : tasks) {
                if (t != head && t instanceof BoltTask b && b.fused
                    && topology.fusion().chainsInto(t.componentId(), head.componentId())) {
                    moving.add(t);
                }
            }
            Executor target = topology.defuse(this, moving, request.getValue());
            if (target == null) {
                break;
            }
            head.fused = false;
            List<TaskRunner> staying = new java.util.ArrayList<>(Arrays.asList(tasks));
            staying.removeAll(moving);
            tasks = staying.toArray(new TaskRunner[0]);
        }
        defuseRequests.clear();
    }

    /**
     * Executes up to {@link #drainLimit} queued tuples, in chunks, stopping early once a millisecond has passed, so a
     * slow bolt still reads its mail (ticks, timeout stamps, a stop) often. A batch left half done is resumed on the
     * next turn.
     *
     * <p>The clock (about 25 ns a read here) is read after the first chunk and after the next; when the tuples between
     * the two ran fast enough that a whole drain limit of them would fit in the budget, it is not read again this turn.
     * Both time decisions are arithmetic, not branches (see {@link #exceeds}).
     */
    private int drainInbox() {
        int done = 0;
        int limit = drainLimit;
        long start = 0;
        int doneAtStart = 0;
        int timed = 1;
        boolean foreignLeft = !foreign.isEmpty();
        while (done < limit) {
            if (foreignLeft) {
                int n = foreign.drain(executeOne, DRAIN_CHUNK);
                foreignLeft = n == DRAIN_CHUNK;
                done += n;
            } else {
                Batch b = current;
                if (b == null) {
                    b = inbox.relaxedPoll();
                    if (b == null) {
                        break;
                    }
                    current = b;
                    position = 0;
                }
                int from = position;
                int to = Math.min(b.size, from + DRAIN_CHUNK);
                position = to;
                for (int i = from; i < to; i++) {
                    Link link = b.link(i);
                    BoltTask target = link.target;
                    if (target.executor != this) {
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
            // the clock is read once a chunk is done; arithmetic, so that this is one branch with both outcomes in every
            // drain: "fewer than a chunk done" happens only for a part batch, which a busy stream sends at random
            // moments, and as a branch of its own it was compiled as a trap (see ARCHITECTURE.md, "The executor loop")
            if ((timed & exceeds(done, DRAIN_CHUNK - 1)) != 0) {
                long now = System.nanoTime();
                if (start == 0) {
                    start = now;
                    doneAtStart = done;
                } else {
                    long elapsed = now - start;
                    // over the budget, the limit drops to what is done and the loop ends
                    limit -= (limit - done) * exceeds(elapsed, TURN_BUDGET_NANOS);
                    timed = drainStaysTimed(elapsed, done - doneAtStart, drainLimit);
                }
            }
        }
        return done;
    }

    /**
     * 1 while the clock must still be read this turn, 0 once {@code tuples} executed in {@code elapsedNanos} show a
     * pace at which a whole drain limit of tuples fits in one turn's budget.
     */
    static int drainStaysTimed(long elapsedNanos, int tuples, int drainLimit) {
        return exceeds(elapsedNanos * drainLimit, TURN_BUDGET_NANOS * tuples - 1);
    }

    /**
     * 1 when {@code value > bound}, else 0, computed without a branch. The executor loop decides on the clock this way:
     * a turn overruns its budget only when its thread is descheduled in the middle of it, so for millions of turns
     * the JIT sees one outcome and compiles the other as a trap, and the first overrun, at a random moment in a
     * steady run, deoptimizes the loop. In measurements a thread then went on running that method in the interpreter
     * for the rest of the run, at a third to a half of its speed (see ARCHITECTURE.md, "The executor loop").
     */
    static int exceeds(long value, long bound) {
        return (int) ((bound - value) >>> 63);
    }

    private int drainLocal() {
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
        if (target.executor != this) {
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
        send(link, values, id);
    }

    /**
     * Posts an action on one task to the thread that runs the task when the action runs: if the task has moved by
     * then, the action follows it.
     */
    void postForTask(TaskRunner task, Runnable action) {
        post((Runnable) () -> {
            Executor now = task.executor;
            if (now != this) {
                now.postForTask(task, action);
            } else {
                action.run();
            }
        });
    }

    private void handleMail(Object mail) {
        if (mail instanceof TupleTree tree) {
            ((SpoutTask) tree.owner()).finishTree(tree);
        } else {
            ((Runnable) mail).run();
        }
    }

    private void idle() {
        int turns = idleTurns < Integer.MAX_VALUE ? ++idleTurns : idleTurns;
        if (spoutsPolled) {
            spoutIdle(turns - 1);
            return;
        }
        if (turns < SPIN_TURNS) {
            Thread.onSpinWait();
            return;
        }
        if (turns < SPIN_TURNS + YIELD_TURNS) {
            Thread.yield();
            return;
        }
        quiet = true;
        boolean spoutsRunning = spouts.length > 0 && topology.spoutsMayRun();
        long max = overflowing > 0 ? MIN_PARK_NANOS : spoutsRunning ? SPOUT_MAX_PARK_NANOS : BOLT_MAX_PARK_NANOS;
        int idleParks = turns - SPIN_TURNS - YIELD_TURNS;
        long nanos = parkNanos(idleParks, spouts.length > 0, max);
        if (spouts.length == 0 && idleParks < WARM_PARKS && overflowing == 0) {
            // while every spout waits out its wait strategy, nothing new enters the topology before the next poll
            nanos = Math.max(nanos, Math.min(max, topology.untilSpoutsPoll()));
        }
        park(nanos);
    }

    /** Times this executor has parked; read by another thread only once the executor has stopped. */
    long parks() {
        return parks;
    }

    /**
     * Nanoseconds until this executor's spouts are polled next, counted from {@code now}: 0 if they may be polled any
     * moment (they are not waiting out their wait strategy), and -1 if it runs no spouts.
     */
    long untilPoll(long now) {
        if (spouts.length == 0) {
            return -1;
        }
        return Math.max(0, nextPollNanos - now);
    }

    /**
     * An idle turn on which the spouts were polled and emitted nothing: the spouts' wait strategy decides, as in Storm
     * (by default, the next poll is a millisecond later). What arrives meanwhile still wakes the executor at once.
     * Turns on which the spouts could not be polled (max spout pending, deactivated, paused) are the other threads'
     * to end: {@link #idle} spins first, so a completion from another thread usually arrives without a park.
     */
    private void spoutIdle(int idleTurns) {
        IWaitStrategy custom = spoutWait.custom();
        if (custom == null) {
            long nanos = spoutWait.parkNanos(idleTurns);
            if (nanos == 0) {
                Thread.onSpinWait();
            } else {
                quiet = true;
                nextPollNanos = System.nanoTime() + nanos;
                park(nanos);
            }
            return;
        }
        quiet = true;
        try {
            spoutWaitCount = custom.idle(spoutWaitCount);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // a stop that timed out; the loop sees the stop request
        } catch (RuntimeException e) {
            LOG.error("Executor {}: the spout wait strategy {} failed; using Storm's default from now on", name,
                custom.getClass().getName(), e);
            topology.reportError(spouts[0], e);
            spoutWait = SpoutWait.of(Map.of(), topology.loader(), spouts[0].componentId());
        }
    }

    /** Parks for up to {@code nanos} unless something arrived; producers and mail unpark it early. */
    private void park(long nanos) {
        sleeping = true;
        if (inbox.isEmpty() && foreign.isEmpty() && current == null && mailbox.isEmpty() && local.isEmpty()
            && completed.isEmpty() && !stopRequested) {
            // parks last 50 µs or more (Linux's timer slack), so two clock reads around one cost nothing that matters
            long before = System.nanoTime();
            LockSupport.parkNanos(this, nanos);
            parkedNanos += System.nanoTime() - before;
            parks++;
        }
        sleeping = false;
    }

    /**
     * How long an idle executor parks next, after {@code parks} parks since it last found work: an executor with spouts
     * from 50 µs up, doubling; one without spouts {@link #WARM_PARK_NANOS} at a time while warm, then doubling from
     * there. Never longer than {@code max}.
     */
    static long parkNanos(int parks, boolean hasSpouts, long max) {
        if (hasSpouts) {
            return Math.min(max, MIN_PARK_NANOS << Math.min(parks, 20));
        }
        if (parks < WARM_PARKS) {
            return Math.min(max, WARM_PARK_NANOS);
        }
        return Math.min(max, WARM_PARK_NANOS << Math.min(parks - WARM_PARKS + 1, 20));
    }

    /** Wakes the executor if it is parked. Any thread. */
    void wake() {
        if (sleeping) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * A tree of one of this executor's spouts completed. On this thread (a fused or local bolt acked) it waits in a
     * plain local queue; from another thread it goes through the mailbox. Either way the spout hears of it on a later
     * turn, never inside its own nextTuple.
     */
    void completeTree(TupleTree tree) {
        if (Thread.currentThread() == thread) {
            completed.add(tree);
        } else {
            post(tree);
        }
    }

    /** Posts a command or a completed tuple tree to run on this executor's thread. Any thread; never blocks. */
    void post(Object mail) {
        mailbox.offer(mail);
        wake();
    }

    /**
     * Sends a tuple over a link to its target task. On the executor's own thread a fused target executes it at once
     * and a tuple for another executor joins the batch for that consumer; from any other thread (user code emitting
     * from a thread of its own) it is handed over at once.
     */
    void send(Link link, List<Object> values, MessageId id) {
        int i = link.executorIndex;
        if (Thread.currentThread() != thread) {
            topology.executor(i).offerFromForeignThread(link.tuple(values, id));
            return;
        }
        if (i == index) {
            BoltTask target = link.target;
            if (target.fused) {
                if (target.oddDepth) { // one copy of the execute code per fused depth's parity: see BoltTask.execute
                    target.executeOdd(link, values, id);
                } else {
                    target.executeEven(link, values, id);
                }
            } else {
                local.add(link.tuple(values, id));
            }
            return;
        }
        if (i >= batches.length) {
            growOutbox(i + 1);
        }
        Batch batch = batches[i];
        if (batch == null) {
            batch = newBatch(i);
            batches[i] = batch;
        }
        if (!listed[i]) {
            listed[i] = true;
            dirty[dirtyCount++] = i;
        }
        if (batch.add(link, values, id)) {
            flushTo(i);
        }
    }

    /**
     * An empty batch to fill for consumer {@code i}. For a consumer that can feed this executor back (slices feeding
     * each other), a new batch that is used once; otherwise one given back by a consumer, or a new one that will be
     * given back. Between slices, recycled batches cost more than they save: WordCount at parallelism 2 on two cores
     * ran at 14.5-18.1M words/s with them and 17.8-22.6M without, while a one-way stream such as const-null-unfused
     * lost about a fifth of its rate without them (see ARCHITECTURE.md, "Batches between slices are used once").
     */
    private Batch newBatch(int i) {
        if (cycleDest[i]) {
            return new Batch(batchSize, null);
        }
        Batch b = freeBatches.relaxedPoll();
        return b != null ? b : new Batch(batchSize, this);
    }

    /** A consumer is done with a full batch of ours: it is empty now, and reused if there is room. Any thread. */
    void giveBack(Batch b) {
        freeBatches.relaxedOffer(b);
    }

    /**
     * Makes room in the outbox for executors added after this one was built (tasks given threads of their own). A task
     * moved out of a slice can feed this executor back, so whether a new consumer is on a cycle with it is asked.
     */
    private void growOutbox(int size) {
        int old = batches.length;
        batches = Arrays.copyOf(batches, size);
        dirty = Arrays.copyOf(dirty, size);
        listed = Arrays.copyOf(listed, size);
        cycleDest = Arrays.copyOf(cycleDest, size);
        overflow = Arrays.copyOf(overflow, size);
        boolean[] flags = topology.cycleFlags(index);
        for (int i = old; i < size; i++) {
            cycleDest[i] = i < flags.length && flags[i];
        }
    }

    /** Hands every pending batch to its consumer. */
    void flushAll() {
        if (overflowing > 0) {
            retryOverflow();
        }
        for (int d = 0; d < dirtyCount; d++) {
            int i = dirty[d];
            listed[i] = false;
            flushTo(i);
        }
        dirtyCount = 0;
    }

    /**
     * Hands the batch for consumer {@code i} over, full or not, and takes an empty one in its place, so that every batch
     * goes back to the executor that made it (one kind of batch that did not would be a rarely taken branch in every
     * consumer's drain loop; see ARCHITECTURE.md, "The executor loop").
     */
    private void flushTo(int i) {
        Batch out = batches[i];
        if (out.size == 0) {
            // listed this turn, then handed over full by send: flushAll's usual case in a busy stream. Asked here,
            // where send's full batches give the branch its other outcome, rather than in flushAll, where a part batch
            // (a turn cut short) was so rare that the JIT compiled it as a trap
            return;
        }
        batches[i] = newBatch(i);
        ArrayDeque<Batch> waiting = overflow[i];
        if (waiting != null && !waiting.isEmpty()) {
            waiting.add(out); // behind the batches already waiting, in order
            return;
        }
        Executor dest = topology.executor(i);
        int waits = 0;
        while (!dest.inbox.offer(out)) {
            if (topology.isHalted()) {
                topology.dropped(out.size);
                return;
            }
            if (cycleDest[i]) {
                spill(i, out);
                return;
            }
            if ((waits & 1023) == 1023) {
                out.touch(0, System.nanoTime());
            }
            dest.wake();
            backOff(waits++);
        }
        dest.wake();
    }

    /**
     * Stamps the trees of tracked tuples that are waiting in a queue (this executor's inbox, its local queue, its
     * overflow lists), so that time spent waiting behind a slow consumer never times a tree out (STORM-2359). Runs on
     * this executor's thread, every half message timeout. The inbox is read with JCTools' weakly consistent iterator.
     */
    void touchQueued() {
        long now = System.nanoTime();
        for (Batch b : inbox) {
            b.touch(0, now);
        }
        if (current != null) {
            current.touch(position, now);
        }
        for (RoutedTuple t : foreign) {
            touch(t, now);
        }
        for (RoutedTuple t : local) {
            touch(t, now);
        }
        if (overflowing > 0) {
            for (ArrayDeque<Batch> q : overflow) {
                if (q != null) {
                    for (Batch b : q) {
                        b.touch(0, now);
                    }
                }
            }
        }
    }

    private static void touch(RoutedTuple t, long now) {
        if (t != null && t.getMessageId() instanceof TrackedMessageId id) {
            id.touch(now);
        }
    }

    /** Keeps what a full consumer on a cycle could not take; the topology's spouts pause until it has drained. */
    private void spill(int i, Batch batch) {
        ArrayDeque<Batch> q = overflow[i];
        if (q == null) {
            q = new ArrayDeque<>();
            overflow[i] = q;
        }
        if (q.isEmpty()) {
            overflowing++;
            topology.overflowChanged(+1);
        }
        q.add(batch);
    }

    private void retryOverflow() {
        for (int i = 0; i < overflow.length; i++) {
            ArrayDeque<Batch> q = overflow[i];
            if (q == null || q.isEmpty()) {
                continue;
            }
            Executor dest = topology.executor(i);
            Batch b;
            boolean moved = false;
            while ((b = q.peek()) != null && dest.inbox.offer(b)) {
                q.poll();
                moved = true;
            }
            if (moved) {
                dest.wake();
            }
            if (q.isEmpty()) {
                overflowing--;
                topology.overflowChanged(-1);
            } else if (topology.isHalted()) {
                int lost = 0;
                for (Batch left : q) {
                    lost += left.size;
                }
                topology.dropped(lost);
                q.clear();
                overflowing--;
                topology.overflowChanged(-1);
            }
        }
    }

    private void offerFromForeignThread(RoutedTuple tuple) {
        int waits = 0;
        while (!foreign.offer(tuple)) {
            if (topology.isHalted()) {
                topology.dropped(1);
                return;
            }
            wake();
            backOff(waits++);
        }
        wake();
    }

    private static void backOff(int waits) {
        if (waits < 16) {
            Thread.onSpinWait();
        } else if (waits < 32) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(100_000L, 1_000L << Math.min(waits - 32, 7)));
        }
    }

    /** Asks the thread to stop after its current turn; tasks are closed on their own thread. */
    void requestStop() {
        stopRequested = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Waits for the thread to end; interrupts it after half the time if it is stuck in user code. */
    boolean awaitStop(long timeoutMs) throws InterruptedException {
        if (stopped.await(timeoutMs / 2, TimeUnit.MILLISECONDS)) {
            return true;
        }
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
        return stopped.await(timeoutMs - timeoutMs / 2, TimeUnit.MILLISECONDS);
    }

    /** True when the executor found nothing to do on its last turn and has nothing queued. Any thread. */
    boolean isQuiet() {
        return quiet && overflowing == 0 && inbox.isEmpty() && foreign.isEmpty() && current == null
            && mailbox.isEmpty();
    }

    boolean stopRequested() {
        return stopRequested;
    }

    boolean isStoppedForGood() {
        return stopped.getCount() == 0;
    }

    boolean isOwnThread() {
        return Thread.currentThread() == thread;
    }

    @Override
    public String toString() {
        return name;
    }
}
