package io.microburst.cluster;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tracked cluster's "transferred" counter, as {@link Tracking}'s collectors move it, and the transfers not yet
 * processed. storm-server's {@code trackedWait} reads "transferred" and then "processed", two reads at two instants;
 * here a tuple is executed within the microseconds between them, so a "transferred" read while a tuple was still on
 * its way could equal the "processed" read a moment later, after that tuple ran but before what it sent did. So the
 * counter is held high while anything is unsettled: by {@link #HOLD} for each send under way (receivers executing
 * inside the send, on a fused edge, never see the counts equal before the sender's own count is in), and by
 * {@link #HOLD} once while any counted transfer has not been processed yet. A read taken in either state never equals
 * any "processed"; once everything sent was processed the counter is the plain count, as Storm's.
 *
 * <p>A transfer is processed when the receiving bolt's tracked execute returned (storm-client's {@code BoltTracker}
 * counted it), or the spout's tracked ack or fail returned ({@code SpoutTracker} counted it). Crossings of zero by two
 * threads at once may apply their holds in either order: the counter is right once both are done, and in between it
 * is off by a whole {@link #HOLD}, so it still equals no count of "processed".
 *
 * <p>Threading: any thread; atomic.
 */
final class TrackedTransfers {
    /** Far above any count a tracked test reaches. */
    static final int HOLD = 1 << 20;
    private final AtomicInteger transferred;
    private final AtomicInteger unprocessed = new AtomicInteger();

    TrackedTransfers(AtomicInteger transferred) {
        this.transferred = transferred;
    }

    /** A send (an emit, or an ack or fail that may complete trees) is about to start. */
    void sending() {
        transferred.addAndGet(HOLD);
    }

    /** The send that {@link #sending()} announced is over: {@code count} transfers came of it. */
    void sent(int count) {
        change(count); // the hold for the unprocessed first, so the counter never dips to the plain count early
        transferred.addAndGet(count - HOLD);
    }

    /** One counted transfer was processed (its tracker counted it). */
    void processed() {
        change(-1);
    }

    private void change(int delta) {
        if (delta == 0) {
            return;
        }
        int before = unprocessed.getAndAdd(delta);
        int after = before + delta;
        if (before <= 0 && after > 0) {
            transferred.addAndGet(HOLD);
        } else if (before > 0 && after <= 0) {
            transferred.addAndGet(-HOLD);
        }
    }
}
