package io.microburst.runtime.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.plan.PlacementPolicy;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.executor.ExecutorProbes;
import io.microburst.runtime.task.BoltTask;
import io.microburst.runtime.task.TaskRunner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
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
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * An undone cut is an internal move, invisible to the user's code: an acked chain (max spout pending unset, as Storm's
 * default) is cut on injected measurements that promise more than it can give, the outcome check undoes the cut, and
 * the bolt moves back into the executor it left. The spout and the bolt keep their instances (opened and prepared
 * once, never closed or cleaned up until the topology stops), the bolt's in-memory count goes on from where it was,
 * no tree fails, and the topology runs in the layout it started in: one fused thread, the same executor.
 */
class CutUndoKeepsStateTest {
    /** Lifecycle and tuple counts, by test key and what is counted. */
    static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    static AtomicLong count(String key, String what) {
        return COUNTS.computeIfAbsent(key + "." + what, k -> new AtomicLong());
    }

    /** Emits numbered tuples with message ids as fast as it is polled; counts its lifecycle, acks and fails. */
    public static class Numbered extends BaseRichSpout {
        private final String key;
        private transient SpoutOutputCollector collector;
        private long next;

        Numbered(String key) {
            this.key = key;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            count(key, "open").incrementAndGet();
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            collector.emit(new Values(next), next++);
        }

        @Override
        public void ack(Object msgId) {
            count(key, "acked").incrementAndGet();
        }

        @Override
        public void fail(Object msgId) {
            count(key, "failed").incrementAndGet();
        }

        @Override
        public void close() {
            count(key, "close").incrementAndGet();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /**
     * Counts its tuples in a field of its own, after 2 µs of work (a million tuples a second is more than it can ever
     * take), and acks them. The field must always equal the total executed: a fresh instance would start again at 1.
     */
    public static class Tally extends BaseRichBolt {
        private final String key;
        private transient OutputCollector collector;
        private long seen;

        Tally(String key) {
            this.key = key;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            count(key, "prepare").incrementAndGet();
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            long until = System.nanoTime() + 2_000;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            seen++;
            if (seen != count(key, "executed").incrementAndGet()) {
                count(key, "countLost").incrementAndGet();
            }
            collector.ack(input);
        }

        @Override
        public void cleanup() {
            count(key, "cleanup").incrementAndGet();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what);
            Thread.sleep(5);
        }
    }

    private static BoltTask fusedTally(Executor e) {
        for (TaskRunner t : e.tasks()) {
            if (t instanceof BoltTask b && b.isFused()) {
                return b;
            }
        }
        return null;
    }

    @Test
    void anUndoneCutKeepsInstancesStateAndTrees() throws Exception {
        String key = "keeps-state-" + System.nanoTime();
        Map<String, Object> defaults = Utils.readStormConfig();
        Map<String, Object> conf = new HashMap<>(defaults);
        conf.put(Config.TOPOLOGY_NAME, "undo-state");
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new Numbered(key));
        b.setBolt("tally", new Tally(key)).localOrShuffleGrouping("spout");
        TopologyPlan plan = TopologyPlan.build("undo-state", "undo-state-1", conf, b.createTopology(), defaults);
        try (SharedTimer timer = new SharedTimer("undo-state-timer")) {
            TopologyRuntime runtime = new TopologyRuntime(plan, getClass().getClassLoader(), timer, r -> { });
            try {
                runtime.start(true);
                await(() -> count(key, "acked").get() > 1_000, "the acked chain runs");
                assertEquals(1, runtime.executors().length, "one fused chain");
                Executor chain = runtime.executors()[0];
                BoltTask tally = fusedTally(chain);
                assertTrue(tally != null, "the bolt is fused into the spout's executor");
                PlacementPolicy.Window w = new PlacementPolicy.Window(1_000_000, 0,
                    List.of(new PlacementPolicy.Point("tally", 1000, 500_000)));
                chain.post(() -> {
                    List<BoltTask> fused = new ArrayList<>();
                    fused.add(fusedTally(chain));
                    ExecutorProbes.decide(chain, w, fused, 2);
                    ExecutorProbes.decide(chain, w, fused, 2);
                });
                await(() -> runtime.executors().length == 2, "the chain was cut in two");
                Executor away = runtime.executors()[1];
                long executedWhileCut = count(key, "executed").get();
                await(() -> runtime.executors().length == 1 && "ACTIVE".equals(runtime.status()), "the cut was undone");
                long acked = count(key, "acked").get();
                await(() -> count(key, "acked").get() > acked + 10_000, "it runs on after the undo");
                assertEquals(1, count(key, "open").get(), "the spout was opened once");
                assertEquals(1, count(key, "prepare").get(), "the bolt was prepared once");
                assertEquals(0, count(key, "close").get(), "the spout was never closed");
                assertEquals(0, count(key, "cleanup").get(), "the bolt was never cleaned up");
                assertEquals(0, count(key, "countLost").get(), "the bolt's own count went on across the undo");
                assertEquals(0, count(key, "failed").get(), "no tree failed");
                assertTrue(count(key, "executed").get() > executedWhileCut, "the bolt ran on");
                assertSame(chain, runtime.executors()[0], "the executor the topology started with");
                assertTrue(tally.isFused() && tally.inbox() == chain.inbox(), "the bolt runs fused in it again");
                assertEquals(2, chain.tasks().length, "the spout and the bolt, on one thread");
                await(away::isStoppedForGood, "the thread the bolt had while cut ends");
            } finally {
                runtime.stopNow();
            }
            assertEquals(1, count(key, "close").get(), "closed once, at the stop");
            assertEquals(1, count(key, "cleanup").get(), "cleaned up once, at the stop");
        }
    }
}
