package io.microburst.reliability;

import com.esotericsoftware.kryo.io.Output;
import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.storm.tuple.MessageId;

/**
 * The message id of a tracked tuple: for each tuple tree it belongs to, the tree itself and the id of the edge that
 * carried the tuple. Holding the trees directly means an ack needs no lookup; the common case of one tree needs no
 * array. Users still see Storm's view through {@link #getAnchorsToIds()}: root id to edge id, built on request.
 *
 * <p>Threading: immutable; any thread may ack or fail through it.
 */
public final class TrackedMessageId extends MessageId {
    private final TupleTree tree;
    private final long edge;
    private final TupleTree[] trees;
    private final long[] edges;

    private TrackedMessageId(TupleTree tree, long edge, TupleTree[] trees, long[] edges) {
        super(Collections.emptyMap());
        this.tree = tree;
        this.edge = edge;
        this.trees = trees;
        this.edges = edges;
    }

    /** A tuple in one tree. */
    public static TrackedMessageId of(TupleTree tree, long edge) {
        return new TrackedMessageId(tree, edge, null, null);
    }

    /** A tuple in several trees; the arrays are owned by the new id. */
    public static TrackedMessageId of(TupleTree[] trees, long[] edges) {
        return new TrackedMessageId(null, 0, trees, edges);
    }

    public int treeCount() {
        return trees == null ? 1 : trees.length;
    }

    public TupleTree tree(int i) {
        return trees == null ? tree : trees[i];
    }

    public long edge(int i) {
        return trees == null ? edge : edges[i];
    }

    /** Acks: removes this tuple's edge and adds the edges created while processing it ({@code outEdges}). */
    public void ack(long outEdges) {
        if (trees == null) {
            tree.xor(edge ^ outEdges);
            return;
        }
        for (int i = 0; i < trees.length; i++) {
            trees[i].xor(edges[i] ^ outEdges);
        }
    }

    public void fail() {
        if (trees == null) {
            tree.fail();
            return;
        }
        for (TupleTree t : trees) {
            t.fail();
        }
    }

    /** True when no tree of this tuple is pending any more (acked, failed or expired). */
    public boolean allDone() {
        if (trees == null) {
            return tree.state() != TupleTree.PENDING;
        }
        for (TupleTree t : trees) {
            if (t.state() == TupleTree.PENDING) {
                return false;
            }
        }
        return true;
    }

    /** This tuple was acked or failed a second time: see {@link TupleTree#misused()}. */
    public void markMisused() {
        if (trees == null) {
            tree.markMisused();
            return;
        }
        for (TupleTree t : trees) {
            t.markMisused();
        }
    }

    public void touch(long nowNanos) {
        if (trees == null) {
            tree.touch(nowNanos);
            return;
        }
        for (TupleTree t : trees) {
            t.touch(nowNanos);
        }
    }

    @Override
    public Map<Long, Long> getAnchorsToIds() {
        Map<Long, Long> map = new HashMap<>();
        for (int i = 0, n = treeCount(); i < n; i++) {
            map.put(tree(i).rootId(), edge(i));
        }
        return map;
    }

    @Override
    public Set<Long> getAnchors() {
        return getAnchorsToIds().keySet();
    }

    @Override
    public int hashCode() {
        return getAnchorsToIds().hashCode();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MessageId && getAnchorsToIds().equals(((MessageId) other).getAnchorsToIds());
    }

    @Override
    public String toString() {
        return getAnchorsToIds().toString();
    }

    @Override
    public void serialize(Output out) throws IOException {
        MessageId.makeId(getAnchorsToIds()).serialize(out);
    }
}
