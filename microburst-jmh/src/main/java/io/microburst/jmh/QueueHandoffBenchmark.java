package io.microburst.jmh;

import java.util.concurrent.TimeUnit;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.SpscArrayQueue;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * The hand-off between two executors: one producer thread and one consumer thread sharing a bounded queue.
 *
 * <p>Four groups, each a producer and a consumer running at once:
 * <ul>
 *   <li>{@code mpscOfferPoll}: JCTools {@link MpscArrayQueue}, one {@code offer}/{@code poll} per element (one CAS
 *       per element on the producer side);</li>
 *   <li>{@code mpscFillDrain}: the same queue the way the engine uses it: the producer stages a batch of
 *       {@code batch} references in an array, then hands it over with {@code fill} (one CAS per batch, resuming where
 *       a full queue stopped it); the consumer takes up to {@code batch} elements per {@code drain};</li>
 *   <li>{@code spscOfferPoll} and {@code spscFillDrain}: {@link SpscArrayQueue}, which needs no CAS at all: the
 *       ceiling for a single producer.</li>
 * </ul>
 *
 * <p>The group's primary score mixes producer and consumer calls and is not meaningful on its own. Read the
 * secondary {@code received} counter: elements the consumer took per microsecond, i.e. the hand-off rate.
 * {@code producerStalls} (offer/fill found the queue full) and {@code consumerStalls} (poll/drain found it empty)
 * show which side was waiting. Neither side backs off, so both threads spin: with fewer than two free cores the
 * figures measure the scheduler more than the queue.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Group)
public class QueueHandoffBenchmark {
    /** Queue capacity; the engine's default executor inbox holds 1024. */
    @Param({"1024"})
    public int capacity;

    /** Elements per fill/drain; the engine's default producer batch is 64. */
    @Param({"64"})
    public int batch;

    private MpscArrayQueue<Object> mpsc;
    private SpscArrayQueue<Object> spsc;

    @Setup(Level.Trial)
    public void createQueues() {
        mpsc = new MpscArrayQueue<>(capacity);
        spsc = new SpscArrayQueue<>(capacity);
    }

    /** Every iteration starts with empty queues (all threads of the group have stopped when this runs). */
    @TearDown(Level.Iteration)
    public void emptyQueues() {
        mpsc.clear();
        spsc.clear();
    }

    /** Per-thread counters, reported as rates next to the primary score. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counters {
        /** Elements the consumer received. */
        public long received;
        /** Producer calls that found the queue full. */
        public long producerStalls;
        /** Consumer calls that found the queue empty. */
        public long consumerStalls;

        @Setup(Level.Iteration)
        public void reset() {
            received = 0;
            producerStalls = 0;
            consumerStalls = 0;
        }
    }

    /** The producer's staging array, as an executor keeps one per consumer, and the supplier fill reads it through. */
    @State(Scope.Thread)
    public static class Producer implements MessagePassingQueue.Supplier<Object> {
        private Object[] elements;
        private Object[] staged;
        private int size;
        private int next;
        private int cursor;

        @Setup(Level.Trial)
        public void setUp(QueueHandoffBenchmark bench) {
            size = bench.batch;
            elements = new Object[size];
            for (int i = 0; i < size; i++) {
                elements[i] = new Object();
            }
            staged = new Object[size];
            next = size;
        }

        /** The next element for a per-element offer. */
        Object one() {
            int i = cursor;
            cursor = i + 1 == size ? 0 : i + 1;
            return elements[i];
        }

        /** Stages a new batch once the previous one has been handed over completely. */
        int remaining() {
            if (next == size) {
                System.arraycopy(elements, 0, staged, 0, size);
                next = 0;
            }
            return size - next;
        }

        @Override
        public Object get() {
            Object e = staged[next];
            staged[next++] = null;
            return e;
        }
    }

    /** What the consumer does with each element: hands it to a Blackhole, as an executor hands a tuple to its task. */
    @State(Scope.Thread)
    public static class Consumer implements MessagePassingQueue.Consumer<Object> {
        private Blackhole blackhole;

        @Setup(Level.Trial)
        public void setUp(Blackhole bh) {
            this.blackhole = bh;
        }

        @Override
        public void accept(Object e) {
            blackhole.consume(e);
        }
    }

    // ---- MPSC, one element at a time ----

    @Benchmark
    @Group("mpscOfferPoll")
    @GroupThreads(1)
    public void mpscOffer(Producer p, Counters c) {
        if (!mpsc.offer(p.one())) {
            c.producerStalls++;
        }
    }

    @Benchmark
    @Group("mpscOfferPoll")
    @GroupThreads(1)
    public Object mpscPoll(Counters c) {
        Object e = mpsc.poll();
        if (e == null) {
            c.consumerStalls++;
        } else {
            c.received++;
        }
        return e;
    }

    // ---- MPSC, batched as the engine does ----

    @Benchmark
    @Group("mpscFillDrain")
    @GroupThreads(1)
    public int mpscFill(Producer p, Counters c) {
        int added = mpsc.fill(p, p.remaining());
        if (added == 0) {
            c.producerStalls++;
        }
        return added;
    }

    @Benchmark
    @Group("mpscFillDrain")
    @GroupThreads(1)
    public int mpscDrain(Consumer consumer, Counters c) {
        int n = mpsc.drain(consumer, batch);
        if (n == 0) {
            c.consumerStalls++;
        } else {
            c.received += n;
        }
        return n;
    }

    // ---- SPSC ceiling ----

    @Benchmark
    @Group("spscOfferPoll")
    @GroupThreads(1)
    public void spscOffer(Producer p, Counters c) {
        if (!spsc.offer(p.one())) {
            c.producerStalls++;
        }
    }

    @Benchmark
    @Group("spscOfferPoll")
    @GroupThreads(1)
    public Object spscPoll(Counters c) {
        Object e = spsc.poll();
        if (e == null) {
            c.consumerStalls++;
        } else {
            c.received++;
        }
        return e;
    }

    @Benchmark
    @Group("spscFillDrain")
    @GroupThreads(1)
    public int spscFill(Producer p, Counters c) {
        int added = spsc.fill(p, p.remaining());
        if (added == 0) {
            c.producerStalls++;
        }
        return added;
    }

    @Benchmark
    @Group("spscFillDrain")
    @GroupThreads(1)
    public int spscDrain(Consumer consumer, Counters c) {
        int n = spsc.drain(consumer, batch);
        if (n == 0) {
            c.consumerStalls++;
        } else {
            c.received += n;
        }
        return n;
    }
}
