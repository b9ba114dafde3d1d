package io.microburst.cluster;

/**
 * Whether a cluster is still open. Whoever adds to the cluster (a submit listing its topology, the first use of the
 * blob store or of Trident's state server) checks it while holding this object's monitor, and {@link #close()} takes
 * the same monitor: what was added before the close is seen by the cleanup that follows it, and nothing is added after.
 *
 * <p>Threading: any thread.
 */
public final class OpenGuard {
    private final String what;
    /** Guarded by this. */
    private boolean closed;

    /** {@code what} names the cluster in the message of {@link #check()}. */
    public OpenGuard(String what) {
        this.what = what;
    }

    /** Throws {@link IllegalStateException} once closed. */
    public synchronized void check() {
        if (closed) {
            throw new IllegalStateException("This " + what + " is closed");
        }
    }

    /** Closes; true only for the first call. */
    public synchronized boolean close() {
        if (closed) {
            return false;
        }
        closed = true;
        return true;
    }
}
