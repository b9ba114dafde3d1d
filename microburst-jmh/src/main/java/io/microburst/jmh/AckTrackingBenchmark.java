package io.microburst.jmh;

import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import io.microburst.reliability.TrackedMessageId;
import io.microburst.reliability.TupleTree;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The acking ledger: Microburst's {@link TupleTree} (the XOR of pending edge ids, updated in place by whichever thread
 * acks, reached from the tuple's {@link TrackedMessageId} with no lookup) against the naive ledger, a
 * {@code ConcurrentHashMap<Long, long[]>} from root id to ack value, updated with {@code computeIfPresent}.
 *
 * <p><b>Lifecycle, one thread</b> ({@code treeLifecycle}, {@code mapLifecycle}; ns per spout tuple): a spout tuple
 * emitted to {@code edges} consumers, as {@code SpoutTask.emit} does it: draw one random id per edge, create the
 * ledger entry with their XOR, create one message id per edge, then ack every edge; the last ack completes the
 * entry. The map holds {@value #BACKGROUND} other pending roots throughout, as a spout with that many tuples in flight
 * would. The baseline creates no per-tuple message id objects, so it is the cheaper side on that account.
 *
 * <p><b>Contended acks, two threads</b> ({@code sharedTree}, {@code sharedMapEntry}; acks per microsecond for the
 * pair): both threads keep acking tuples of the same tree, each ack XORing out one edge and XORing in a new one (a
 * bolt that anchors one output to its input), so the tree stays pending. {@code ownTrees} is the same work with one
 * tree per thread: the difference to {@code sharedTree} is the cost of sharing the tree's cache line.
 */
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AckTrackingBenchmark {
    static final int BACKGROUND = 1024;
    static final Object MESSAGE_ID = "msg";
    static final String STREAM = "default";
    static final int STREAM_INDEX = 0;

    /** One thread's ledgers and random edge ids for the lifecycle benchmarks. */
    @State(Scope.Thread)
    public static class Single implements TupleTree.Owner {
        /** Edges of each spout tuple (consumer tasks it is emitted to). */
        @Param({"1", "4", "16"})
        public int edges;

        final SplittableRandom random = new SplittableRandom(7);
        long[] edgeIds;
        TrackedMessageId[] messageIds;
        ConcurrentHashMap<Long, long[]> ledger;
        long created;
        long completed;

        @Setup(Level.Trial)
        public void setUp() {
            edgeIds = new long[edges];
            messageIds = new TrackedMessageId[edges];
            ledger = new ConcurrentHashMap<>();
            for (int i = 0; i < BACKGROUND; i++) {
                ledger.put(random.nextLong(), new long[] {random.nextLong() | 1});
            }
        }

        @TearDown(Level.Trial)
        public void check() {
            if (completed != created) {
                throw new IllegalStateException("completed " + completed + " of " + created + " entries");
            }
            if (ledger.size() != BACKGROUND) {
                throw new IllegalStateException("map ledger kept " + (ledger.size() - BACKGROUND) + " entries");
            }
        }

        @Override
        public void treeCompleted(TupleTree tree) {
            completed++;
        }

        long drawEdges() {
            long ackVal = 0;
            for (int i = 0; i < edgeIds.length; i++) {
                long e = random.nextLong();
                edgeIds[i] = e;
                ackVal ^= e;
            }
            created++;
            return ackVal;
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public TupleTree treeLifecycle(Single s) {
        long ackVal = s.drawEdges();
        TupleTree tree = new TupleTree(s.random.nextLong(), MESSAGE_ID, STREAM, STREAM_INDEX, 0L, ackVal, s);
        int n = s.edgeIds.length;
        TrackedMessageId[] ids = s.messageIds;
        for (int i = 0; i < n; i++) {
            ids[i] = TrackedMessageId.of(tree, s.edgeIds[i]); // emit: the ids travel with the tuples
        }
        for (int i = 0; i < n; i++) {
            ids[i].ack(0L); // each consumer acks its tuple, emitting nothing anchored
        }
        return tree;
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public Long mapLifecycle(Single s) {
        long ackVal = s.drawEdges();
        Long root = s.random.nextLong();
        s.ledger.put(root, new long[] {ackVal});
        int n = s.edgeIds.length;
        for (int i = 0; i < n; i++) {
            if (mapAck(s.ledger, root, s.edgeIds[i])) {
                s.completed++;
            }
        }
        return root;
    }

    /** XORs {@code edges} into the root's entry; true if that completed (and removed) it. */
    static boolean mapAck(ConcurrentHashMap<Long, long[]> ledger, Long root, long edges) {
        long[] after = ledger.computeIfPresent(root, (k, v) -> {
            v[0] ^= edges;
            return v[0] == 0 ? null : v;
        });
        return after == null;
    }

    /** The tree and the map entry both threads of a contended group ack into. */
    @State(Scope.Group)
    public static class Shared implements TupleTree.Owner {
        static final long PENDING_EDGE = 0x9E3779B97F4A7C15L;

        TupleTree tree;
        ConcurrentHashMap<Long, long[]> ledger;
        final Long root = 42L;

        @Setup(Level.Trial)
        public void setUp() {
            // An edge nobody acks keeps the tree pending whatever the ackers XOR in and out.
            tree = new TupleTree(root, MESSAGE_ID, STREAM, STREAM_INDEX, 0L, PENDING_EDGE, this);
            ledger = new ConcurrentHashMap<>();
            SplittableRandom random = new SplittableRandom(11);
            for (int i = 0; i < BACKGROUND; i++) {
                ledger.put(random.nextLong(), new long[] {random.nextLong() | 1});
            }
            ledger.put(root, new long[] {PENDING_EDGE});
        }

        @Override
        public void treeCompleted(TupleTree t) {
            // Only if the random edges ever XOR to exactly zero; harmless, the XORs go on.
        }
    }

    /** One acking thread: its current input edge, its random edge ids, and its own tree for the uncontended case. */
    @State(Scope.Thread)
    public static class Acker implements TupleTree.Owner {
        SplittableRandom random;
        long inputEdge;
        TrackedMessageId sharedInput;
        TrackedMessageId ownInput;

        @Setup(Level.Trial)
        public void setUp() {
            random = new SplittableRandom(System.nanoTime() ^ Thread.currentThread().getId());
            inputEdge = random.nextLong();
            TupleTree own = new TupleTree(1L, MESSAGE_ID, STREAM, STREAM_INDEX, 0L, Shared.PENDING_EDGE, this);
            ownInput = TrackedMessageId.of(own, inputEdge);
        }

        @Override
        public void treeCompleted(TupleTree t) {
        }

        /** The id of this thread's input tuple in the shared tree (created on the thread's first call). */
        TrackedMessageId sharedInput(Shared shared) {
            TrackedMessageId id = sharedInput;
            if (id == null) {
                id = TrackedMessageId.of(shared.tree, inputEdge);
                sharedInput = id;
            }
            return id;
        }
    }

    @Benchmark
    @Group("sharedTree")
    @GroupThreads(2)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void sharedTree(Shared shared, Acker a) {
        // Ack the input, anchoring one new output edge: one getAndBitwiseXor on the shared tree.
        a.sharedInput(shared).ack(a.random.nextLong());
    }

    @Benchmark
    @Group("ownTrees")
    @GroupThreads(2)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void ownTrees(Acker a) {
        a.ownInput.ack(a.random.nextLong());
    }

    @Benchmark
    @Group("sharedMapEntry")
    @GroupThreads(2)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public boolean sharedMapEntry(Shared shared, Acker a) {
        return mapAck(shared.ledger, shared.root, a.inputEdge ^ a.random.nextLong());
    }
}
