package io.microburst.jmh;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import io.microburst.MicroburstCluster;
import io.microburst.MicroburstConfig;
import org.apache.storm.Config;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * End to end through the public API: a {@code ConstSpout -> NullBolt} topology (shuffle grouping, one task each)
 * built with Storm's {@link TopologyBuilder} and running on {@link MicroburstCluster}, with and without acking, with
 * and without operator fusion.
 *
 * <p>The topology runs on its own executor threads from the start of the trial to its end. The benchmark thread only
 * samples: each call sleeps {@value #SAMPLE_MILLIS} ms and adds the number of tuples the bolt executed meanwhile to
 * the {@code tuples} counter. Read that secondary result (tuples per second); the primary score only counts samples.
 * With acking on, every spout tuple carries a message id, the bolt acks it, and the spout keeps at most
 * {@value #MAX_SPOUT_PENDING} tuples pending.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
@State(Scope.Benchmark)
public class TopologyThroughputBenchmark {
    static final long SAMPLE_MILLIS = 100;
    static final int MAX_SPOUT_PENDING = 10_000;
    private static final String TOPOLOGY = "jmh-throughput";

    /** Counters of the bolt instances of the running trial; each bolt task adds its own when prepared. */
    static final List<AtomicLong> EXECUTED = new CopyOnWriteArrayList<>();
    /** Tuples failed back to the spout (acking on): should stay zero. */
    static final AtomicLong FAILED = new AtomicLong();

    @Param({"false", "true"})
    public boolean acking;

    /**
     * Operator fusion ({@link MicroburstConfig#FUSION}): when true the bolt runs on the spout's thread (a method call
     * per tuple); when false each has its own executor and tuples cross a queue in batches.
     */
    @Param({"true", "false"})
    public boolean fusion;

    private MicroburstCluster cluster;

    @Setup(Level.Trial)
    public void submit() throws Exception {
        EXECUTED.clear();
        FAILED.set(0);
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("const", new ConstSpout(acking), 1);
        builder.setBolt("null", new NullBolt(), 1).shuffleGrouping("const");
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_ACKER_EXECUTORS, acking ? 1 : 0);
        conf.put(MicroburstConfig.FUSION, fusion);
        if (acking) {
            conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, MAX_SPOUT_PENDING);
        }
        cluster = new MicroburstCluster();
        cluster.submitTopology(TOPOLOGY, conf, builder.createTopology());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (executed() == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no tuple reached the bolt within 30 s");
            }
            Thread.sleep(10);
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        long failed = FAILED.get();
        cluster.close();
        EXECUTED.clear();
        if (failed > 0) {
            throw new IllegalStateException(failed + " spout tuples failed during the trial");
        }
    }

    static long executed() {
        long sum = 0;
        for (AtomicLong c : EXECUTED) {
            sum += c.get();
        }
        return sum;
    }

    /** Tuples the bolt executed while the benchmark thread slept, as a rate next to the primary score. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counters {
        public long tuples;

        @Setup(Level.Iteration)
        public void reset() {
            tuples = 0;
        }
    }

    @Benchmark
    public void sample(Counters counters) throws InterruptedException {
        long before = executed();
        Thread.sleep(SAMPLE_MILLIS);
        counters.tuples += executed() - before;
    }

    /** Emits the same one-field tuple on every call, with a message id when acking. */
    public static final class ConstSpout extends BaseRichSpout {
        private static final long serialVersionUID = 1L;
        private final boolean withMessageIds;
        private transient SpoutOutputCollector collector;
        private transient long next;

        public ConstSpout(boolean withMessageIds) {
            this.withMessageIds = withMessageIds;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (withMessageIds) {
                collector.emit(new Values("const"), next++);
            } else {
                collector.emit(new Values("const"));
            }
        }

        @Override
        public void fail(Object msgId) {
            FAILED.incrementAndGet();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("value"));
        }
    }

    /** Counts and acks every tuple; emits nothing. */
    public static final class NullBolt extends BaseRichBolt {
        private static final long serialVersionUID = 1L;
        private transient OutputCollector collector;
        private transient AtomicLong executed;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.executed = new AtomicLong();
            EXECUTED.add(executed);
        }

        @Override
        public void execute(Tuple input) {
            // One writer per counter: an ordered store is enough, no atomic read-modify-write on the hot path.
            executed.lazySet(executed.get() + 1);
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
