package io.microburst.runtime.task;

import java.util.Arrays;
import java.util.Collection;
import io.microburst.reliability.TrackedMessageId;
import io.microburst.reliability.TupleTree;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;

/**
 * Message ids of a bolt's anchored emits, as Storm's acker defines them: each anchor gets a fresh edge id, XORed into
 * the anchor's pending ack value and into the new tuple's entry for every tree the anchor belongs to. Keeps its
 * scratch arrays between emits, so an emit with one tree allocates only the id.
 *
 * <p>Threading: whichever thread calls the bolt's collector, one at a time (as the bolt's own state).
 */
final class AnchoredIds {
    private TupleTree[] anchorTrees = new TupleTree[4];
    private long[] anchorEdges = new long[4];

    /** The message id of a new tuple anchored to {@code anchors}; edge ids come from {@code task}. */
    MessageId of(Collection<Tuple> anchors, TaskRunner task) {
        int count = 0;
        for (Tuple anchor : anchors) {
            if (!(anchor instanceof RoutedTuple rt)) {
                count = copiedAnchor(anchor, task, count);
                continue;
            }
            if (!(rt.getMessageId() instanceof TrackedMessageId id)) {
                continue;
            }
            long edge = task.nextId();
            rt.updateAckVal(edge);
            for (int j = 0; j < id.treeCount(); j++) {
                count = addAnchorEdge(id.tree(j), edge, count);
            }
        }
        if (count == 0) {
            return TaskRunner.UNANCHORED;
        }
        if (count == 1) {
            return TrackedMessageId.of(anchorTrees[0], anchorEdges[0]);
        }
        return TrackedMessageId.of(Arrays.copyOf(anchorTrees, count), Arrays.copyOf(anchorEdges, count));
    }

    /**
     * An anchor that is a copy of a tuple the task was given (a {@link TupleImpl} made from it, as storm-clojure's
     * ClojureTuple): as in Storm, the copy has the tuple's message id and an ack value of its own.
     */
    private int copiedAnchor(Tuple anchor, TaskRunner task, int count) {
        if (!(anchor instanceof TupleImpl copy) || !(copy.getMessageId() instanceof TrackedMessageId id)) {
            return count;
        }
        long edge = task.nextId();
        copy.updateAckVal(edge);
        for (int j = 0; j < id.treeCount(); j++) {
            count = addAnchorEdge(id.tree(j), edge, count);
        }
        return count;
    }

    private int addAnchorEdge(TupleTree tree, long edge, int count) {
        for (int k = 0; k < count; k++) {
            if (anchorTrees[k] == tree) {
                anchorEdges[k] ^= edge;
                return count;
            }
        }
        if (count == anchorTrees.length) {
            anchorTrees = Arrays.copyOf(anchorTrees, count * 2);
            anchorEdges = Arrays.copyOf(anchorEdges, count * 2);
        }
        anchorTrees[count] = tree;
        anchorEdges[count] = edge;
        return count + 1;
    }
}
