package io.microburst.runtime.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstConfig;
import io.microburst.plan.ComponentPlan;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.executor.Executor;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.generated.ErrorInfo;
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
 * Automatic parallelism on a running topology: a cheap spout feeding a heavy bolt of four tasks, started on one
 * executor each. It measures, decides and rebalances at most three times and stops once a decision changes nothing;
 * each decision is recorded with its rates among the topology's errors. What it decides depends on the machine, so only
 * bounds are checked, never times.
 */
class AutoParallelismTest {
    /** Emits numbers as fast as it is polled. */
    public static class Numbers extends BaseRichSpout {
        private transient SpoutOutputCollector collector;
        private transient int next;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            collector.emit(new Values(next++));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** A fixed amount of arithmetic per tuple (no clock). */
    public static class Heavy extends BaseBasicBolt {
        static volatile long sink;

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            long x = input.getInteger(0);
            for (int i = 0; i < 20_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            sink = x;
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    private static long executedByHeavy(Executor[] executors) {
        long n = 0;
        for (ExecutorView v : StatsViews.of(executors)) {
            if (v.componentId().equals("heavy")) {
                n += v.tasks().stream().mapToLong(s -> s.executedTotal()).sum();
            }
        }
        return n;
    }

    /** True when heavy executed something over 50 ms on the same executors, while active. */
    private static boolean runsOn(TopologyRuntime runtime) throws InterruptedException {
        Executor[] executors = runtime.executors();
        if (!"ACTIVE".equals(runtime.status())) {
            Thread.sleep(20);
            return false;
        }
        long before = executedByHeavy(executors);
        Thread.sleep(50);
        return runtime.executors() == executors && executedByHeavy(executors) > before;
    }

    @Test
    void itDecidesAtMostThreeTimesAndSaysWhy() throws Exception {
        Map<String, Object> defaults = Utils.readStormConfig();
        Map<String, Object> conf = new HashMap<>(defaults);
        conf.put(Config.TOPOLOGY_NAME, "auto");
        conf.put(Config.TOPOLOGY_ACKER_EXECUTORS, 0);
        conf.put(MicroburstConfig.PARALLELISM, "auto");
        conf.put(MicroburstConfig.PARALLELISM_INTERVAL_SECS, 1);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("numbers", new Numbers(), 1);
        b.setBolt("heavy", new Heavy(), 1).setNumTasks(4).shuffleGrouping("numbers");
        TopologyPlan plan = TopologyPlan.build("auto", "auto-1", conf, b.createTopology(), defaults);
        try (SharedTimer timer = new SharedTimer("auto-timer")) {
            TopologyRuntime runtime = new TopologyRuntime(plan, AutoParallelismTest.class.getClassLoader(), timer, r -> { });
            try {
                runtime.start(true);
                AutoParallelism auto = runtime.autoParallelism();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (!auto.done()) {
                    assertTrue(System.nanoTime() < deadline, "still deciding after 120 s: " + auto.decisions());
                    Thread.sleep(20);
                }
                assertTrue(auto.decisions() >= 1 && auto.decisions() <= AutoParallelism.MAX_DECISIONS,
                    auto.decisions() + " decisions");
                List<ErrorInfo> records = runtime.errors().snapshot().get(TopologyRuntime.ERRORS_OF_THE_RUNTIME);
                long decided = records.stream().filter(r -> r.get_error().contains(" of at most ")).count();
                long rebalanced = records.stream().filter(r -> r.get_error().contains("; rebalancing")).count();
                long checked = records.stream().filter(r -> r.get_error().contains(" checked: ")).count();
                assertEquals(auto.decisions(), decided, "one record per decision");
                assertEquals(rebalanced, checked, "every step that rebalanced was checked by its outcome: " + records);
                String first = records.get(0).get_error();
                assertTrue(first.contains("decision 1 of at most 3") && first.contains("heavy 1->")
                    && first.contains("true rate") && !first.contains("not measured"), first);
                for (ComponentPlan c : plan.components().values()) {
                    assertTrue(c.executors() >= 1 && c.executors() <= c.taskIds().size(), c.id() + ": " + c.executors());
                }
                assertEquals(1, plan.component("numbers").executors(), "a spout of one task keeps one executor");
                // it runs on at the counts chosen (once a last rebalance, if any, is over)
                deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!runsOn(runtime)) {
                    assertTrue(System.nanoTime() < deadline, "heavy executes nothing after the last decision");
                }
                assertFalse(runtime.isStopped());
            } finally {
                runtime.stopNow();
            }
        }
    }
}
