package io.microburst.reliability;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A spout task's trees that are still pending, in two time buckets rotated once per message timeout, so a tree
 * expires between one and two timeouts after its emit or last resetTimeout (Storm's rotating map does the same).
 * Intrusive doubly linked lists give O(1) insert, remove and move, with no allocation.
 *
 * <p>Confined to the spout task's thread.
 */
public final class PendingTrees {
    private final TupleTree[] heads = new TupleTree[2];
    private int newest;
    private int size;
    /** Completed trees of an abandoned instance, still on their way to the owner (see {@link #abandon}). */
    private final Set<TupleTree> abandoned = Collections.newSetFromMap(new IdentityHashMap<>());

    public void add(TupleTree tree) {
        link(tree, newest);
        size++;
    }

    /**
     * Removes a tree if it is still listed. Returns false only for a tree that was {@link #abandon abandoned} on its
     * way to the owner, whose outcome then goes nowhere; true otherwise (also for a tree that rotation unlinked).
     */
    public boolean remove(TupleTree tree) {
        if (tree.bucket >= 0) {
            unlink(tree);
            size--;
            return true;
        }
        return abandoned.isEmpty() || !abandoned.remove(tree);
    }

    /**
     * The owner's instance failed: unlinks every tree, asking {@code expire} to expire each; a tree it cannot expire has
     * completed and is on its way to the owner, and {@link #remove} will say so when it arrives.
     */
    public void abandon(Predicate<TupleTree> expire) {
        clear(tree -> {
            if (!expire.test(tree)) {
                abandoned.add(tree);
            }
        });
    }

    public int size() {
        return size;
    }

    /** The tree added last, if it is still listed in the newest bucket; else null. */
    public TupleTree newest() {
        return heads[newest];
    }

    /**
     * Rotates: the older bucket expires. Trees in it that were reset within the last timeout stay, in the bucket that
     * the rotation makes the older one, where Storm's rotating map has a tree reset since the previous rotation: so a
     * tree expires at the second rotation after its last resetTimeout, between one and two timeouts after it, as in
     * Storm. The others are unlinked and handed to {@code expired}. (Tuples waiting in queues keep their trees stamped,
     * so slowness is not taken for loss.)
     *
     * @param timeoutNanos the message timeout
     */
    public void rotate(long nowNanos, long timeoutNanos, Consumer<TupleTree> expired) {
        int oldest = 1 - newest;
        newest = oldest;
        TupleTree t = heads[oldest];
        heads[oldest] = null;
        TupleTree survivors = null;
        while (t != null) {
            TupleTree next = t.next;
            t.prev = null;
            t.next = null;
            t.bucket = -1;
            long touched = t.touchedNanos();
            if (touched != 0 && nowNanos - touched < timeoutNanos) {
                t.next = survivors;
                survivors = t;
            } else {
                size--;
                expired.accept(t);
            }
            t = next;
        }
        while (survivors != null) {
            TupleTree next = survivors.next;
            survivors.next = null;
            link(survivors, 1 - newest);
            survivors = next;
        }
    }

    /**
     * Hands every listed tree to {@code action}, changing nothing: the newest bucket first, each bucket newest first
     * (trees are added at the head; survivors of a rotation go to the head of the older one).
     */
    public void forEach(Consumer<TupleTree> action) {
        for (int b = newest, k = 0; k < 2; k++, b = 1 - b) {
            for (TupleTree t = heads[b]; t != null; t = t.next) {
                action.accept(t);
            }
        }
    }

    /** Unlinks every tree, handing each to {@code action}. */
    public void clear(Consumer<TupleTree> action) {
        for (int b = 0; b < 2; b++) {
            TupleTree t = heads[b];
            heads[b] = null;
            while (t != null) {
                TupleTree next = t.next;
                t.prev = null;
                t.next = null;
                t.bucket = -1;
                size--;
                action.accept(t);
                t = next;
            }
        }
    }

    private void link(TupleTree tree, int bucket) {
        TupleTree head = heads[bucket];
        tree.next = head;
        tree.prev = null;
        if (head != null) {
            head.prev = tree;
        }
        heads[bucket] = tree;
        tree.bucket = bucket;
    }

    private void unlink(TupleTree tree) {
        if (tree.prev != null) {
            tree.prev.next = tree.next;
        } else {
            heads[tree.bucket] = tree.next;
        }
        if (tree.next != null) {
            tree.next.prev = tree.prev;
        }
        tree.prev = null;
        tree.next = null;
        tree.bucket = -1;
    }
}
