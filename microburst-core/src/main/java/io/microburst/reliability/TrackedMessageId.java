package io.microburst.reliability;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.storm.tuple.MessageId;

/**
 * The message id of a tracked tuple: for each tuple tree it belongs to, the tree itself and the id of the edge that
 * carried the tuple. Holding the trees directly means an ack needs no lookup. Users still see Storm's view through
 * {@link #getAnchorsToIds()}: root id to edge id.
 */
public final class TrackedMessageId extends MessageId {
    private final TupleTree[] trees;
    private final long[] edges;

    private TrackedMessageId(AnchorView view) {
        super(view);
        this.trees = view.trees;
        this.edges = view.edges;
    }

    /** A tuple in one tree. */
    public static TrackedMessageId of(TupleTree tree, long edge) {
        return new TrackedMessageId(new AnchorView(new TupleTree[] {tree}, new long[] {edge}));
    }

    /** A tuple in several trees; the arrays are owned by the new id. */
    public static TrackedMessageId of(TupleTree[] trees, long[] edges) {
        return new TrackedMessageId(new AnchorView(trees, edges));
    }

    public int treeCount() {
        return trees.length;
    }

    public TupleTree tree(int i) {
        return trees[i];
    }

    public long edge(int i) {
        return edges[i];
    }

    /** Acks: removes this tuple's edge and adds the edges created while processing it ({@code outEdges}). */
    public void ack(long outEdges) {
        for (int i = 0; i < trees.length; i++) {
            trees[i].xor(edges[i] ^ outEdges);
        }
    }

    public void fail() {
        for (TupleTree tree : trees) {
            tree.fail();
        }
    }

    public void touch(long nowNanos) {
        for (TupleTree tree : trees) {
            tree.touch(nowNanos);
        }
    }

    /** Read-only root-id to edge-id view over the arrays. */
    private static final class AnchorView extends AbstractMap<Long, Long> {
        final TupleTree[] trees;
        final long[] edges;

        AnchorView(TupleTree[] trees, long[] edges) {
            this.trees = trees;
            this.edges = edges;
        }

        @Override
        public Set<Entry<Long, Long>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Entry<Long, Long>> iterator() {
                    return new Iterator<>() {
                        int i;

                        @Override
                        public boolean hasNext() {
                            return i < trees.length;
                        }

                        @Override
                        public Entry<Long, Long> next() {
                            if (i >= trees.length) {
                                throw new NoSuchElementException();
                            }
                            Entry<Long, Long> e = Map.entry(trees[i].rootId(), edges[i]);
                            i++;
                            return e;
                        }
                    };
                }

                @Override
                public int size() {
                    return trees.length;
                }
            };
        }
    }
}
