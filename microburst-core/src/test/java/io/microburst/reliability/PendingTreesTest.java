package io.microburst.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingTreesTest {
    private static final long T = 1_000;

    private static TupleTree tree(int id) {
        return new TupleTree(id, id, "s", 0, 0, 1, t -> { });
    }

    @Test
    void treeExpiresOnSecondRotationAfterItsEmit() {
        PendingTrees pending = new PendingTrees();
        TupleTree t = tree(1);
        pending.add(t);
        List<TupleTree> expired = new ArrayList<>();
        pending.rotate(T, T, expired::add);
        assertTrue(expired.isEmpty(), "a tree survives the first rotation (it may be younger than T)");
        pending.rotate(2 * T, T, expired::add);
        assertEquals(List.of(t), expired);
        assertEquals(0, pending.size());
    }

    @Test
    void removedTreeNeverExpires() {
        PendingTrees pending = new PendingTrees();
        TupleTree a = tree(1);
        TupleTree b = tree(2);
        TupleTree c = tree(3);
        pending.add(a);
        pending.add(b);
        pending.add(c);
        pending.remove(b);
        pending.remove(b);
        List<TupleTree> expired = new ArrayList<>();
        pending.rotate(T, T, expired::add);
        pending.rotate(2 * T, T, expired::add);
        assertEquals(2, expired.size());
        assertTrue(expired.contains(a) && expired.contains(c));
    }

    @Test
    void touchedTreeSurvives() {
        PendingTrees pending = new PendingTrees();
        TupleTree touched = tree(1);
        TupleTree plain = tree(2);
        pending.add(touched);
        pending.add(plain);
        List<TupleTree> expired = new ArrayList<>();
        pending.rotate(T, T, expired::add);
        touched.touch(2 * T - 10);
        pending.rotate(2 * T, T, expired::add);
        assertEquals(List.of(plain), expired, "the stamped tree survives");
        pending.rotate(3 * T, T, expired::add);
        assertEquals(List.of(plain, touched), expired,
            "the stamped tree expires at the second rotation after its stamp, as Storm's rotating map has it");
    }

    @Test
    void treeStampedAgainBeforeEachRotationNeverExpires() {
        PendingTrees pending = new PendingTrees();
        TupleTree kept = tree(1);
        pending.add(kept);
        List<TupleTree> expired = new ArrayList<>();
        for (int r = 1; r <= 6; r++) {
            kept.touch(r * T - 10);
            pending.rotate(r * T, T, expired::add);
        }
        assertTrue(expired.isEmpty());
        assertEquals(1, pending.size());
        pending.rotate(7 * T, T, expired::add);
        pending.rotate(8 * T, T, expired::add);
        assertEquals(List.of(kept), expired);
    }

    @Test
    void anAbandonedTreeOnItsWayToTheOwnerIsToldApartFromOneRotationUnlinked() {
        PendingTrees pending = new PendingTrees();
        TupleTree stillPending = tree(1);
        TupleTree completed = tree(2);
        TupleTree rotatedOut = tree(3);
        pending.add(rotatedOut);
        pending.rotate(T, T, t -> { });
        pending.rotate(2 * T, T, t -> { }); // unlinked by rotation while its completion is on its way
        pending.add(stillPending);
        pending.add(completed);
        completed.xor(1); // acked: leaves PENDING, then reaches its owner later
        List<TupleTree> expired = new ArrayList<>();
        pending.abandon(t -> t.expire() && expired.add(t));
        assertEquals(List.of(stillPending), expired);
        assertEquals(0, pending.size());
        assertTrue(!pending.remove(completed), "the completed tree of the abandoned instance goes nowhere");
        assertTrue(pending.remove(completed), "once: it is forgotten after");
        assertTrue(pending.remove(rotatedOut), "a tree rotation unlinked is still reported");
    }
}
