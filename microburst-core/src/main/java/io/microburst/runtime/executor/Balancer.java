package io.microburst.runtime.executor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import io.microburst.plan.DecisionCheck;
import io.microburst.plan.PlacementPolicy;
import io.microburst.runtime.cost.BalanceWindow;
import io.microburst.runtime.cost.ThreadWaits;
import io.microburst.runtime.cost.WindowSum;
import io.microburst.runtime.task.BoltTask;
import io.microburst.runtime.task.Inbox;
import io.microburst.runtime.task.SpoutTask;
import io.microburst.runtime.task.Switchboard;
import io.microburst.runtime.task.TaskRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pipelining, every {@link #BALANCE_PERIOD_MS} ms on one executor's thread. Fusion puts a whole chain on one thread;
 * when that thread is busy all the time and a core is left over, the chain may be cut in two: a fused task (with the
 * tasks fused after it) moves to an executor of its own, as a slow one does, and the two halves run in parallel. This
 * class measures (the window's length and parked time, each fused task's sampled execute time and executes counted);
 * {@link PlacementPolicy#decide} decides. The same cut chosen in two windows in a row is needed, so a warm-up window
 * decides nothing alone, and each window it decides on is the sum of the last {@link WindowSum#WINDOWS} (one window's
 * estimate is too noisy for the same topology to get the same layout run after run).
 *
 * <p>Every cut is checked by its outcome ({@link CutCheck}): the window after the move is a warm-up, the next one is
 * measured as the one that decided was (the moved task's tuples a second, and the complete latency of this thread's
 * spouts), and {@link DecisionCheck#judge} keeps or undoes it. An undone cut is refused from then on until the load at
 * that task changes ({@link ExecutorHost#cutRefused}).
 *
 * <p>Threading: the executor's own thread only; it publishes whether the executor was busy through
 * {@link Inbox#busy}.
 *
 * <p>Public for the topology's timers ({@code runtime.topology}), which read {@link #BALANCE_PERIOD_MS} to post {@code
 * Executor#balance}; the balancing itself runs on the executor's thread.
 */
public final class Balancer {
    private static final Logger LOG = LoggerFactory.getLogger(Balancer.class);
    /** How often an executor with fused tasks checks whether its chain should be cut in two. */
    public static final long BALANCE_PERIOD_MS = 1000;
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    /** What reading the clock costs here (the least of a few short runs), taken off each sampled execute time. */
    static final long CLOCK_NANOS = clockNanos();

    private final Inbox inbox;
    private final Switchboard board;
    private final PlacementPolicy.Mode mode;
    private final LongSupplier clock;
    private final LongSupplier threadWaits;
    private final int cores;
    private final ExecutorHost host;
    private final long queueTuples;
    private final SpoutWindow spouts = new SpoutWindow();
    private final CutCheck check;
    private final WindowSum recent = new WindowSum();
    private long windowStartNanos;
    private long windowParkedNanos;
    private long windowIdleNanos;
    private long windowWaitNanos;
    private BoltTask cutCandidate;

    Balancer(Inbox inbox, Switchboard board, ExecutorHost host, long queueTuples) {
        this(inbox, board, host, queueTuples, System::nanoTime, ThreadWaits::currentNanos, CORES);
    }

    /**
     * With a clock, a reader of the calling thread's total wait for a core ({@link ThreadWaits}; negative when unknown)
     * and a core count of the caller's (tests drive it with fakes).
     */
    Balancer(Inbox inbox, Switchboard board, ExecutorHost host, long queueTuples, LongSupplier clock,
        LongSupplier threadWaits, int cores) {
        this.inbox = inbox;
        this.board = board;
        this.host = host;
        this.mode = host.placementMode();
        this.queueTuples = queueTuples;
        this.clock = clock;
        this.threadWaits = threadWaits;
        this.cores = cores;
        this.check = new CutCheck(host, inbox);
    }

    private static long clockNanos() {
        long best = Long.MAX_VALUE;
        for (int run = 0; run < 5; run++) {
            long start = System.nanoTime();
            long last = start;
            for (int i = 0; i < 1000; i++) {
                last = System.nanoTime();
            }
            best = Math.min(best, (last - start) / 1000);
        }
        return best;
    }

    /** The executor's loop starts: the first window starts now. */
    void start() {
        windowStartNanos = clock.getAsLong();
        windowWaitNanos = threadWaits.getAsLong();
    }

    /**
     * Closes a window: {@code parkedNanos} is the executor's total time idle so far (parked, or waiting for room in a
     * full consumer), {@code idleNanos} the part of it parked for want of work. Asks the inbox to move the task
     * at which to cut the chain, when the same one was chosen in the window before.
     */
    void balance(TaskRunner[] tasks, long parkedNanos, long idleNanos) {
        long now = clock.getAsLong();
        long elapsed = now - windowStartNanos;
        long parked = parkedNanos - windowParkedNanos;
        long idle = idleNanos - windowIdleNanos;
        long waitsNow = threadWaits.getAsLong();
        long waits = waitsNow < 0 || windowWaitNanos < 0 ? -1 : waitsNow - windowWaitNanos;
        windowWaitNanos = waitsNow;
        windowStartNanos = now;
        windowParkedNanos = parkedNanos;
        windowIdleNanos = idleNanos;
        List<BoltTask> fused = new ArrayList<>();
        List<PlacementPolicy.Point> points = new ArrayList<>();
        spouts.close(tasks);
        // a thread that parked for want of work measures its input, not its layout: such a window judges no cut
        boolean inputBound = idle >= elapsed * PlacementPolicy.MAX_IDLE_SHARE;
        check.windowClosed(elapsed, inputBound, spouts.completeLatencyNanos());
        for (TaskRunner t : tasks) {
            if (t instanceof BoltTask b && b.isFused()) {
                b.window().close(b.stats(), b.slowStreak()); // every window, so each covers one period
                fused.add(b);
                // a sampled execute's time includes one clock read: not the task's, and as long as a cheap execute
                BalanceWindow w = b.window();
                long spent = w.meanNanos() < 0 ? -1 : w.tuples() * Math.max(0, w.meanNanos() - CLOCK_NANOS);
                points.add(new PlacementPolicy.Point(b.componentId() + "[" + b.taskId() + "]", w.tuples(), spent));
            }
        }
        PlacementPolicy.Tracking tracking = spouts.acked()
            ? new PlacementPolicy.Tracking(true, spouts.maxInFlight(), queueTuples) : PlacementPolicy.Tracking.NONE;
        PlacementPolicy.Window window = new PlacementPolicy.Window(elapsed, parked, points, tracking, waits);
        PlacementPolicy.Window summed = recent.add(window);
        if (summed == null) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("Executor {}: {} -> not summed yet", inbox, window);
            }
            inbox.setBusy(window.busy()); // too early to decide on this layout: the sum fills
            cutCandidate = null;
            return;
        }
        decide(summed, fused, cores);
    }

    /**
     * Acts on one closed window whose points are {@code fused}'s, in order, on a machine of {@code cores} cores. Tests
     * call it with windows of their own.
     */
    void decide(PlacementPolicy.Window window, List<BoltTask> fused, int cores) {
        boolean busy = window.busy();
        inbox.setBusy(busy);
        PlacementPolicy.Cut cut = PlacementPolicy.decide(mode, window, board.busyExecutors(), cores);
        if (LOG.isDebugEnabled()) {
            LOG.debug("Executor {}: {} -> {}", inbox, window, cut);
        }
        BoltTask best = cut == null ? null : fused.get(cut.point());
        double rate = best == null ? 0 : rate(window.points().get(cut.point()).tuples(), window.elapsedNanos());
        if (best != null && (check.checking() || host.cutRefused(best.componentId(), rate))) {
            best = null; // one decision checked at a time; an undone cut waits for its load to change
        }
        if (best == null) {
            cutCandidate = null;
        } else if (best == cutCandidate) {
            cutCandidate = null;
            check.cutMade(best, rate, spouts.completeLatencyNanos(), cut.gain());
            recent.clear();
            inbox.requestDefuse(best, cut.reason());
        } else {
            cutCandidate = best;
        }
    }

    /** Whether the topology refuses a cut at {@code componentId} at {@code rate} tuples a second (tests ask). */
    boolean refused(String componentId, double rate) {
        return host.cutRefused(componentId, rate);
    }

    static double rate(long tuples, long elapsedNanos) {
        return elapsedNanos <= 0 ? 0 : tuples * 1e9 / elapsedNanos;
    }

    /**
     * The acked spouts of this thread over the window: whether they completed trees, how many they may have pending,
     * and their mean sampled complete latency. Executor thread only.
     */
    static final class SpoutWindow {
        private long acked;
        private long completeNanos;
        private long completeSamples;
        private boolean trackedNow;
        private long maxInFlight;
        private double latency = -1;

        void close(TaskRunner[] tasks) {
            long a = 0;
            long n = 0;
            long s = 0;
            long bound = 0;
            boolean unbounded = false;
            for (TaskRunner t : tasks) {
                if (t instanceof SpoutTask spout) {
                    a += spout.stats().spoutAckedTotal();
                    n += spout.stats().completeNanosTotal();
                    s += spout.stats().completeSamplesTotal();
                    unbounded |= spout.maxPending() <= 0;
                    bound += spout.maxPending();
                }
            }
            trackedNow = a > acked;
            latency = s > completeSamples ? (double) (n - completeNanos) / (s - completeSamples) : -1;
            maxInFlight = unbounded ? 0 : bound;
            acked = a;
            completeNanos = n;
            completeSamples = s;
        }

        boolean acked() {
            return trackedNow;
        }

        long maxInFlight() {
            return maxInFlight;
        }

        /** Mean sampled complete latency over the window, or -1 when nothing completed. */
        double completeLatencyNanos() {
            return trackedNow ? latency : -1;
        }
    }

}
