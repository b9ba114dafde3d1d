package io.microburst.runtime.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.storm.Config;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * A cut that does not keep its promise is undone: a busy chain is cut on injected measurements that promise far more
 * than this layout can give (a million tuples a second before the cut, into a bolt of 2 µs a tuple); the executor that cut measures the moved
 * bolt's real rate over the windows after it, the outcome check fails, the bolt moves back into the executor it left
 * (one fused thread, as the topology started), and the same cut is refused at that load.
 */
class CutUndoTest {
    static final AtomicLong COUNTED = new AtomicLong();

    /** Emits as fast as it is polled. */
    public static class Flat extends BaseRichSpout {
        private transient SpoutOutputCollector collector;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            collector.emit(new Values("x"));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("s"));
        }
    }

    /** Counts, after 2 µs of work: a million tuples a second is more than it can ever take. */
    public static class Count extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            long until = System.nanoTime() + 2_000;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            COUNTED.incrementAndGet();
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

    @Test
    void aCutThatDoesNotPayIsUndoneAndNotMadeAgainAtTheSameLoad() throws Exception {
        Map<String, Object> defaults = Utils.readStormConfig();
        Map<String, Object> conf = new HashMap<>(defaults);
        conf.put(Config.TOPOLOGY_NAME, "undo");
        conf.put(Config.TOPOLOGY_ACKER_EXECUTORS, 0);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new Flat());
        b.setBolt("count", new Count()).localOrShuffleGrouping("spout");
        TopologyPlan plan = TopologyPlan.build("undo", "undo-1", conf, b.createTopology(), defaults);
        try (SharedTimer timer = new SharedTimer("undo-timer")) {
            TopologyRuntime runtime = new TopologyRuntime(plan, CutUndoTest.class.getClassLoader(), timer, r -> { });
            try {
                runtime.start(true);
                await(() -> COUNTED.get() > 1_000, "the chain runs");
                assertEquals(1, runtime.executors().length, "one fused chain");
                Executor chain = runtime.executors()[0];
                // 1000 tuples in a millisecond (a million a second), count half of the busy thread: 1.9x promised
                PlacementPolicy.Window w = new PlacementPolicy.Window(1_000_000, 0,
                    List.of(new PlacementPolicy.Point("count", 1000, 500_000)));
                chain.post(() -> {
                    List<BoltTask> fused = new ArrayList<>();
                    for (TaskRunner t : chain.tasks()) {
                        if (t instanceof BoltTask bolt && bolt.isFused()) {
                            fused.add(bolt);
                        }
                    }
                    ExecutorProbes.decide(chain, w, fused, 2);
                    ExecutorProbes.decide(chain, w, fused, 2);
                });
                await(() -> runtime.executors().length == 2, "the chain was cut in two");
                // a few balance windows later the check finds far less than promised: the bolt moves back, fused
                await(() -> runtime.executors().length == 1, "the cut was undone");
                assertSame(chain, runtime.executors()[0], "the start layout: the same executor, nothing rebuilt");
                assertEquals("ACTIVE", runtime.status());
                assertTrue(ExecutorProbes.cutRefused(runtime.executors()[0], "count", 1.2e6), "the same cut is refused at the same load");
                assertFalse(ExecutorProbes.cutRefused(runtime.executors()[0], "count", 0.4e6), "and tried again once the load changed");
                long before = COUNTED.get();
                await(() -> COUNTED.get() > before + 1_000, "it runs on, fused");
            } finally {
                runtime.stopNow();
            }
        }
    }
}
