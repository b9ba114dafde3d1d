package io.microburst.runtime.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.plan.PlacementPolicy;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.BoltTask;
import io.microburst.runtime.task.TaskRunner;
import io.microburst.runtime.executor.ExecutorProbes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
 * The balancer acts on what the placement policy decides: given the measurements of two windows (injected, so the
 * verdict depends on no clock and no free CPU), a busy chain of two stages of about half each is cut in two while it
 * runs; the moved bolt runs on a thread of its own from then on, and no tuple is lost or reordered.
 */
class BalancerCutTest {
    static final AtomicInteger ALLOWED = new AtomicInteger();
    static final Map<String, Set<String>> THREADS = new ConcurrentHashMap<>();
    static final List<Integer> SEEN_BY_B = new CopyOnWriteArrayList<>();
    static final AtomicInteger ACKED = new AtomicInteger();

    /** Emits 0, 1, 2... while the test allows, each with a message id. */
    public static class Gated extends BaseRichSpout {
        private transient SpoutOutputCollector collector;
        private transient int next;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (next < ALLOWED.get()) {
                THREADS.computeIfAbsent("spout", k -> ConcurrentHashMap.newKeySet()).add(Thread.currentThread().getName());
                collector.emit(new Values(next), next);
                next++;
            }
        }

        @Override
        public void ack(Object msgId) {
            ACKED.incrementAndGet();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Passes its tuple on, noting its thread (and, for b, the order of what it saw). */
    public static class Stage extends BaseBasicBolt {
        private final String name;

        Stage(String name) {
            this.name = name;
        }

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            THREADS.computeIfAbsent(name, k -> ConcurrentHashMap.newKeySet()).add(Thread.currentThread().getName());
            if (name.equals("b")) {
                SEEN_BY_B.add(input.getInteger(0));
            }
            collector.emit(new Values(input.getInteger(0)));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what);
            Thread.sleep(5);
        }
    }

    @Test
    void aBusyChainIsCutInTwoWhenItsMeasurementsSaySo() throws Exception {
        ALLOWED.set(0);
        ACKED.set(0);
        THREADS.clear();
        SEEN_BY_B.clear();
        Map<String, Object> defaults = Utils.readStormConfig();
        Map<String, Object> conf = new java.util.HashMap<>(defaults);
        conf.put(Config.TOPOLOGY_NAME, "cut");
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new Gated());
        b.setBolt("a", new Stage("a")).localOrShuffleGrouping("spout");
        b.setBolt("b", new Stage("b")).shuffleGrouping("a");
        TopologyPlan plan = TopologyPlan.build("cut", "cut-1", conf, b.createTopology(), defaults);
        try (SharedTimer timer = new SharedTimer("cut-timer")) {
            TopologyRuntime runtime = new TopologyRuntime(plan, BalancerCutTest.class.getClassLoader(), timer, r -> { });
            try {
                runtime.start(true);
                ALLOWED.set(1000);
                await(() -> ACKED.get() == 1000, "first 1000 acked: " + ACKED.get());
                assertEquals(1, runtime.executors().length, "one fused chain");
                Executor chain = runtime.executors()[0];
                // a second of a never-idle thread: a took 10 ms for 1000 tuples (b included), b 5 ms of it
                PlacementPolicy.Window w = new PlacementPolicy.Window(10_000_000, 0, List.of(
                    new PlacementPolicy.Point("a", 1000, 10_000_000), new PlacementPolicy.Point("b", 1000, 5_000_000)));
                chain.post(() -> {
                    List<BoltTask> fused = new ArrayList<>();
                    for (TaskRunner t : chain.tasks()) {
                        if (t instanceof BoltTask bolt && bolt.isFused()) {
                            fused.add(bolt);
                        }
                    }
                    assertEquals(List.of("a", "b"), fused.stream().map(TaskRunner::componentId).toList());
                    ExecutorProbes.decide(chain, w, fused, 2);
                    ExecutorProbes.decide(chain, w, fused, 2);
                });
                // while the cut is made, tuples keep coming
                ALLOWED.set(3000);
                await(() -> runtime.executors().length == 2, "the chain was cut in two");
                ALLOWED.set(5000);
                await(() -> ACKED.get() == 5000, "all 5000 acked: " + ACKED.get());
                assertEquals(THREADS.get("spout"), THREADS.get("a"), "a stayed with the spout");
                assertEquals(2, THREADS.get("b").size(), "b ran fused, then on a thread of its own: " + THREADS.get("b"));
                assertEquals(5000, SEEN_BY_B.size(), "nothing lost, nothing twice");
                for (int i = 0; i < SEEN_BY_B.size(); i++) {
                    assertEquals(i, SEEN_BY_B.get(i), "b saw the tuples in the order a sent them");
                }
            } finally {
                runtime.stopNow();
            }
        }
    }
}
