package io.microburst.runtime.task;

import java.util.ArrayList;
import java.util.List;
import io.microburst.reliability.TrackedMessageId;
import io.microburst.reliability.TupleTree;
import org.apache.storm.tuple.MessageId;

/**
 * The last {@value #CAPACITY} tuple trees of a topology that failed or timed out, each with why and which task last
 * held it: failed by a bolt's fail call, by its task crashing, or timed out while queued, executing or held at a task.
 * Written where a tree fails (a bolt's fail, a crashed task failing what it held, the timeout sweep's trace), never on
 * the per-tuple path: a tree that is acked costs nothing here.
 *
 * <p>Threading: any thread; a short lock per failed tree, and per read.
 */
public final class TreeLog {
    /** How many recent trees are kept. */
    public static final int CAPACITY = 100;

    /** One failed or timed-out tree: its root id, the message id as its spout gave it, and why. */
    public record Entry(long rootId, String messageId, String spoutComponent, int spoutTask, long timeMillis,
                        String reason, String lastHolder) {
    }

    private final Entry[] ring = new Entry[CAPACITY];
    private long written;

    /** The log of the topology a task belongs to. Any thread. */
    public static TreeLog of(TaskRunner task) {
        return task.host.treeLog();
    }

    /** "component:task", as Storm's UI names an executor's task. */
    public static String name(TaskRunner task) {
        return task.componentId() + ":" + task.taskId;
    }

    /**
     * Fails the trees of {@code id} (if it is tracked), recording each that this call failed with its reason and
     * {@code holder} as its last holder; the reason is made only for a tree this call failed. Any thread.
     */
    private static void fail(MessageId id, TaskRunner holder, boolean crashed) {
        if (id instanceof TrackedMessageId tracked) {
            for (int i = 0, n = tracked.treeCount(); i < n; i++) {
                TupleTree tree = tracked.tree(i);
                if (tree.fail()) {
                    String name = name(holder);
                    holder.host.treeLog().record(tree, crashed ? "crashed: its task " + name + " failed"
                        : "failed by " + name, name);
                }
            }
        }
    }

    /** A bolt's fail call: "failed by component:task". */
    static void failedBy(MessageId id, TaskRunner bolt) {
        fail(id, bolt, false);
    }

    /** What a task held when its instance died (or, waiting for its replacement, when a stop came). */
    static void crashed(MessageId id, TaskRunner task) {
        fail(id, task, true);
    }

    /** Records a tree that failed or timed out. Any thread. */
    public void record(TupleTree tree, String reason, String lastHolder) {
        String spout = "";
        int spoutTask = -1;
        if (tree.owner() instanceof TaskRunner owner) {
            spout = owner.componentId();
            spoutTask = owner.taskId;
        }
        String message = String.valueOf(tree.messageId());
        if (message.length() > 200) {
            message = message.substring(0, 200) + "...";
        }
        Entry e = new Entry(tree.rootId(), message, spout, spoutTask, System.currentTimeMillis(), reason, lastHolder);
        synchronized (this) {
            ring[(int) (written++ % CAPACITY)] = e;
        }
    }

    /** The recorded trees, newest first. Any thread. */
    public synchronized List<Entry> recent() {
        List<Entry> out = new ArrayList<>();
        for (long i = written - 1; i >= 0 && i >= written - CAPACITY; i--) {
            out.add(ring[(int) (i % CAPACITY)]);
        }
        return out;
    }
}
