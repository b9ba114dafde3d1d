package io.microburst.cluster;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.storm.shade.org.apache.zookeeper.ZooDefs.OpCode;
import org.apache.storm.shade.org.apache.zookeeper.server.Request;

/**
 * Holds back, in the transactional state server, what an upgrade's new version asks of Trident's state until the old
 * version has stopped: the new version's coordinators open beside the old version (their ZooKeeper clients connect,
 * create their roots and close, about 100 ms each, before the output gap), but must not read the state the old
 * version is still writing. The sessions created while this hold {@linkplain #isCapturing captures} (the new
 * version's: the old version opened its sessions when it started) are held: their creates pass (Storm's
 * {@code TransactionalState} creates its root nodes, which the old version made already), and so do pings and what
 * is not under the transactional root (Curator reads ZooKeeper's {@code /zookeeper/config} when it connects), but
 * their first other request under the root (a read of the state) and everything after it on that session wait, in
 * order, until {@link #release()} submits them. After {@link #abort()} they are never submitted: a held task never opens, and its executor's stop
 * interrupts it. A session that another topology opens while a hold captures waits too, until the upgrade ends.
 *
 * <p>Threading: {@link #offer} on ZooKeeper's request throttler thread; the rest on the upgrading thread. All state
 * is guarded by this.
 */
public final class StateReadHold {
    private final Consumer<Request> submit;
    private final String root;
    private final Set<Long> sessions = new HashSet<>();
    private final Set<Long> queuedSessions = new HashSet<>(); // sessions with a request in the queue
    private final ArrayDeque<Request> queue = new ArrayDeque<>();
    private boolean capturing = true;
    private boolean released;
    private boolean aborted;

    /**
     * A hold of the requests under {@code root} (Trident's transactional root, such as {@code /transactional}) that
     * passes those it lets go to {@code submit} (the server's own submit).
     */
    StateReadHold(Consumer<Request> submit, String root) {
        this.submit = submit;
        this.root = root.endsWith("/") ? root : root + "/";
    }

    /**
     * The server's throttler thread, for each request: true if this hold took it (queued, or dropped after an
     * abort); false if the server processes it now.
     */
    synchronized boolean offer(Request r) {
        if (r.type == OpCode.createSession) {
            if (capturing) {
                sessions.add(r.sessionId);
            }
            return false;
        }
        if (released || r.type == OpCode.ping || !sessions.contains(r.sessionId)) {
            return false;
        }
        if (aborted) {
            if (r.type == OpCode.closeSession) {
                sessions.remove(r.sessionId);
                return false;
            }
            return true;
        }
        if (!queuedSessions.contains(r.sessionId) && (passesFirst(r.type) || !underRoot(r))) {
            if (r.type == OpCode.closeSession) {
                sessions.remove(r.sessionId);
            }
            return false;
        }
        queue.add(r);
        if (queuedSessions.add(r.sessionId)) {
            notifyAll();
        }
        return true;
    }

    /**
     * True if {@code r} names a path under the root: the request records of ZooKeeper's path operations begin with
     * their path (a jute string: its length, then UTF-8). A multi-operation is counted under it.
     */
    private boolean underRoot(Request r) {
        if (r.type == OpCode.multi || r.type == OpCode.multiRead) {
            return true;
        }
        byte[] record = r.readRequestBytes();
        if (record == null || record.length < 4) {
            return false;
        }
        ByteBuffer in = ByteBuffer.wrap(record);
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            return false;
        }
        String path = new String(record, 4, length, StandardCharsets.UTF_8);
        return path.startsWith(root) || path.equals(root.substring(0, root.length() - 1));
    }

    private static boolean passesFirst(int type) {
        return type == OpCode.create || type == OpCode.create2 || type == OpCode.createContainer
            || type == OpCode.createTTL || type == OpCode.closeSession;
    }

    /** True while sessions created now are held. */
    public synchronized boolean isCapturing() {
        return capturing;
    }

    /** How many sessions have a request held. */
    public synchronized int heldSessions() {
        return queuedSessions.size();
    }

    /** Waits until {@code count} sessions have a request held, for at most {@code timeoutMs}; true if they have. */
    public synchronized boolean awaitHeldSessions(int count, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (queuedSessions.size() < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || aborted || released) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** The old version has stopped: submits what was held, in order, and holds nothing more. */
    public synchronized void release() {
        if (aborted || released) {
            return;
        }
        released = true;
        capturing = false;
        for (Request r : queue) {
            submit.accept(r);
        }
        queue.clear();
        queuedSessions.clear();
        sessions.clear();
        notifyAll();
    }

    /**
     * The upgrade failed: what was held is dropped, and every request of a held session is from now on, until the
     * session closes. Sessions created until {@link #stopCapturing()} are held as well (a client that reconnects).
     */
    public synchronized void abort() {
        if (released) {
            return;
        }
        aborted = true;
        queue.clear();
        queuedSessions.clear();
        notifyAll();
    }

    /** Sessions created from now on are not held (after an abort, once the new version has stopped). */
    public synchronized void stopCapturing() {
        capturing = false;
    }

    /** True when the hold has nothing left to do: released, or aborted with no session left. */
    synchronized boolean isDone() {
        return released || (aborted && !capturing && sessions.isEmpty());
    }
}
