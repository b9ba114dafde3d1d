package io.microburst.runtime.executor;

import io.microburst.plan.DecisionCheck;
import io.microburst.runtime.cost.WindowSum;
import io.microburst.runtime.task.BoltTask;
import io.microburst.runtime.task.Inbox;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks one cut by its outcome, for the {@link Balancer} of the executor that made it: the window that decided (the
 * sum of {@link WindowSum#WINDOWS}) is the "before"; the first window after the move is a warm-up (the move happens
 * between turns, part of it ran fused); the next {@link WindowSum#WINDOWS} are the "after", measured as the "before"
 * was, over as long: the moved task's tuples a second, and the mean complete latency of this thread's spouts. Judged
 * on one window against three, a cut that gave about what it needed was kept in some runs and undone in others. A
 * window in which this thread parked for want of work (its input fell, not its layout's speed) is no part of the
 * "after": the next ones that were busy are.
 * {@link DecisionCheck#judge} decides; an undone cut goes to {@link ExecutorHost#undoCut}, which moves the tasks back
 * into this executor and refuses the same cut until the load at that task changes.
 *
 * <p>Threading: the executor's own thread only (the balancer's). The moved task's executed count is then written by
 * its new thread; reading it here may see a count a little old, which only shifts tuples between windows.
 */
final class CutCheck {
    private static final Logger LOG = LoggerFactory.getLogger(CutCheck.class);
    /** Windows closed after the cut before the one measured: the warm-up. */
    private static final int WARM_UP_WINDOWS = 1;
    /**
     * Windows after which a cut that no busy window could judge (its producer kept parking for want of input) is kept
     * as it is, so that checking it does not hold back every later cut of this executor.
     */
    static final int MAX_WINDOWS = 10;

    private final ExecutorHost host;
    private final Inbox home;
    private BoltTask moved;
    private double rateBefore;
    private double latencyBefore;
    private double promised;
    /** The least gain the topology's placement asks of a cut: half its margin is what a kept cut must give. */
    private final double leastGain;
    private long executedAtStart;
    private int windowsAfter;
    private int measured;
    private long measuredNanos;
    private double latencySum;
    private int latencyWindows;

    CutCheck(ExecutorHost host, Inbox home) {
        this.host = host;
        this.home = home;
        this.leastGain = host.placementMode().minGain();
    }

    /** Whether a cut is being checked (no other is made meanwhile). */
    boolean checking() {
        return moved != null;
    }

    /** A cut at {@code task} was requested, after a window at {@code rate} tuples/s there, promising {@code gain}. */
    void cutMade(BoltTask task, double rate, double completeLatencyNanos, double gain) {
        moved = task;
        rateBefore = rate;
        latencyBefore = completeLatencyNanos;
        promised = gain;
        windowsAfter = 0; // the move happens at the end of this turn: the next window is all after it
        measured = 0;
        measuredNanos = 0;
        latencySum = 0;
        latencyWindows = 0;
    }

    /**
     * A window of {@code elapsedNanos} closed; {@code inputBound}: this thread parked for want of work in it;
     * {@code completeLatencyNanos} is this thread's spouts' mean in it.
     */
    void windowClosed(long elapsedNanos, boolean inputBound, double completeLatencyNanos) {
        if (moved == null) {
            return;
        }
        long executed = moved.stats().executedTotal();
        windowsAfter++;
        if (windowsAfter <= WARM_UP_WINDOWS || inputBound) {
            executedAtStart = executed; // the "after" is of busy windows in a row: it starts again
            measured = 0;
            measuredNanos = 0;
            latencySum = 0;
            latencyWindows = 0;
            if (windowsAfter >= MAX_WINDOWS) {
                LOG.info("Cut at {} kept: no window after it was busy enough to judge it", moved.componentId());
                moved = null;
            }
            return;
        }
        measured++;
        measuredNanos += elapsedNanos;
        if (completeLatencyNanos >= 0) {
            latencySum += completeLatencyNanos;
            latencyWindows++;
        }
        if (measured < WindowSum.WINDOWS) {
            return; // the tuples counted since executedAtStart add up over the busy windows measured
        }
        double rateAfter = Balancer.rate(executed - executedAtStart, measuredNanos);
        double latencyAfter = latencyWindows == 0 ? -1 : latencySum / latencyWindows;
        DecisionCheck.Verdict v = DecisionCheck.judge(new DecisionCheck.Outcome(rateBefore, latencyBefore),
            new DecisionCheck.Outcome(rateAfter, latencyAfter), promised, leastGain);
        BoltTask task = moved;
        moved = null;
        if (v.keep()) {
            LOG.info("Cut at {} checked: {}", task.componentId(), v.reason());
        } else {
            host.undoCut(home, task, rateBefore, "the cut at " + task.componentId() + " did not pay: " + v.reason());
        }
    }
}
