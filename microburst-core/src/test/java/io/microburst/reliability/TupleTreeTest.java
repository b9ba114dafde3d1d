package io.microburst.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TupleTreeTest {
    private final List<TupleTree> completed = new ArrayList<>();
    private final TupleTree.Owner owner = completed::add;

    @Test
    void completesWhenEveryEdgeIsAckedInAnyOrder() {
        SplittableRandom random = new SplittableRandom(7);
        long a = random.nextLong();
        long b = random.nextLong();
        TupleTree tree = new TupleTree(1, "m", "default", 0, 0, a ^ b, owner);
        // the tuple on edge a is processed: it emits a child on edge c, then acks
        long c = random.nextLong();
        tree.xor(a ^ c);
        assertTrue(completed.isEmpty());
        tree.xor(c);
        assertTrue(completed.isEmpty());
        tree.xor(b);
        assertEquals(List.of(tree), completed);
        assertEquals(TupleTree.ACKED, tree.state());
    }

    @Test
    void failWinsOnceAndLateAcksAreIgnored() {
        TupleTree tree = new TupleTree(1, "m", "default", 0, 0, 42, owner);
        tree.fail();
        tree.fail();
        tree.xor(42);
        assertEquals(1, completed.size());
        assertEquals(TupleTree.FAILED, tree.state());
    }

    @Test
    void expiredTreeNeverReachesItsOwner() {
        TupleTree tree = new TupleTree(1, "m", "default", 0, 0, 42, owner);
        assertTrue(tree.expire());
        tree.xor(42);
        tree.fail();
        assertTrue(completed.isEmpty());
        assertFalse(tree.expire());
    }

    @Test
    void emptyTreeCompletesAtOnce() {
        TupleTree tree = new TupleTree(1, "m", "default", 0, 0, 0, owner);
        tree.completeIfEmpty();
        assertEquals(TupleTree.ACKED, tree.state());
    }

    @Test
    void concurrentAcksCompleteExactlyOnce() throws Exception {
        int edges = 20_000;
        SplittableRandom random = new SplittableRandom(11);
        long[] ids = new long[edges];
        long initial = 0;
        for (int i = 0; i < edges; i++) {
            ids[i] = random.nextLong();
            initial ^= ids[i];
        }
        AtomicInteger calls = new AtomicInteger();
        TupleTree tree = new TupleTree(1, "m", "default", 0, 0, initial, t -> calls.incrementAndGet());
        CountDownLatch go = new CountDownLatch(1);
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            int offset = t;
            threads[t] = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = offset; i < edges; i += threads.length) {
                    tree.xor(ids[i]);
                }
            });
            threads[t].start();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(1, calls.get());
        assertEquals(TupleTree.ACKED, tree.state());
    }

    @Test
    void trackedIdShowsStormsRootToEdgeView() {
        TupleTree t1 = new TupleTree(100, "a", "s", 0, 0, 1, owner);
        TupleTree t2 = new TupleTree(200, "b", "s", 0, 0, 2, owner);
        TrackedMessageId id = TrackedMessageId.of(new TupleTree[] {t1, t2}, new long[] {1, 2});
        assertEquals(java.util.Map.of(100L, 1L, 200L, 2L), id.getAnchorsToIds());
        id.ack(0);
        assertEquals(2, completed.size());
    }
}
