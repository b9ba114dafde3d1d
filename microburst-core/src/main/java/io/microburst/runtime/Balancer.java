package io.microburst.runtime;

/**
 * Pipelining, every {@link #BALANCE_PERIOD_MS} ms on one executor's thread. Fusion puts a whole chain on one thread;
 * when that thread is busy all the time, a core is left over, and one fused task (with the tasks fused into it) takes
 * between a quarter and three quarters of the thread's time at a microsecond or more per tuple, the chain is cut
 * there: that task moves to an executor of its own, as a slow one does, and the two halves run in parallel, as Storm
 * would run them. A cheaper task is not worth a hand-over between threads; a share outside that range leaves one side
 * doing nearly everything. The same choice in two windows in a row is needed, so a warm-up window decides nothing
 * alone.
 *
 * <p>Threading: the executor's own thread only; it publishes whether the executor was busy through
 * {@link Inbox#busy}.
 */
final class Balancer {
    /** How often an executor with fused tasks checks whether its chain should be cut in two. */
    static final long BALANCE_PERIOD_MS = 1000;
    private static final double MIN_CUT_SHARE = 0.25;
    private static final double MAX_CUT_SHARE = 0.75;
    /** A fused task cheaper than this per tuple is not worth a hand-over between threads (about 0.1 µs of CPU). */
    static final long MIN_CUT_EXECUTE_NANOS = 1_000;
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    private final Inbox inbox;
    private final Switchboard board;
    private long windowStartNanos;
    private long windowParkedNanos;
    private BoltTask cutCandidate;

    Balancer(Inbox inbox, Switchboard board) {
        this.inbox = inbox;
        this.board = board;
    }

    /** The executor's loop starts: the first window starts now. */
    void start() {
        windowStartNanos = System.nanoTime();
    }

    /**
     * Closes a window: {@code parkedNanos} is the executor's total time parked so far. Asks the inbox to move the task
     * at which to cut the chain, when the same one was chosen in the window before.
     */
    void balance(TaskRunner[] tasks, long parkedNanos) {
        long now = System.nanoTime();
        long elapsed = now - windowStartNanos;
        long parked = parkedNanos - windowParkedNanos;
        windowStartNanos = now;
        windowParkedNanos = parkedNanos;
        boolean busy = elapsed > 0 && parked < elapsed / 10;
        inbox.busy = busy;
        BoltTask best = null;
        double bestShare = 0;
        double bestDistance = Double.MAX_VALUE;
        for (TaskRunner t : tasks) {
            if (!(t instanceof BoltTask b) || !b.fused) {
                continue;
            }
            b.window.close(b.stats); // every window, so each covers one period
            if (!busy || b.window.meanNanos < MIN_CUT_EXECUTE_NANOS) {
                continue;
            }
            double share = (double) b.window.spentNanos / elapsed;
            if (share >= MIN_CUT_SHARE && share <= MAX_CUT_SHARE && Math.abs(share - 0.5) < bestDistance) {
                best = b;
                bestShare = share;
                bestDistance = Math.abs(share - 0.5);
            }
        }
        if (best == null || board.busyExecutors() >= CORES) {
            cutCandidate = null;
        } else if (best == cutCandidate) {
            cutCandidate = null;
            inbox.requestDefuse(best, "it took " + Math.round(100 * bestShare) + "% of a thread that was never idle, "
                + "and a core was free");
        } else {
            cutCandidate = best;
        }
    }
}
