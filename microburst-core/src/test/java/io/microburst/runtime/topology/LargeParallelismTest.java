package io.microburst.runtime.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstConfig;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.BoltTask;
import io.microburst.runtime.task.TaskRunner;
import io.microburst.runtime.task.TaskProbes;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
 * What a submit builds grows with the number of executors, not with its square: an all-to-all grouping between P and
 * C tasks starts with no links (each is made when first used), and an outbox has room only for the consumers it has
 * sent to, so that thousands of executors neither exhaust the heap nor take half a minute to start.
 */
class LargeParallelismTest {
    static final AtomicInteger READY = new AtomicInteger();

    public static class Spout extends BaseRichSpout {
        private transient SpoutOutputCollector collector;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            READY.incrementAndGet();
        }

        @Override
        public void nextTuple() {
            collector.emit(new Values(1));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    public static class Bolt extends BaseRichBolt {
        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            READY.incrementAndGet();
        }

        @Override
        public void execute(Tuple input) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Links and outbox slots after an inactive topology of {@code executors} executors has prepared every task. */
    private static long structuresAfterSubmit(int executors) throws Exception {
        READY.set(0);
        Map<String, Object> defaults = Utils.readStormConfig();
        Map<String, Object> conf = new HashMap<>(defaults);
        conf.put(MicroburstConfig.FUSION, false);
        conf.put(MicroburstConfig.EXECUTOR_THREADS_MAX, Integer.MAX_VALUE); // a thread per executor, as measured here
        conf.put(Config.TOPOLOGY_NAME, "wide");
        TopologyBuilder b = new TopologyBuilder();
        int spouts = executors / 4;
        b.setSpout("spout", new Spout(), spouts);
        b.setBolt("bolt", new Bolt(), executors - spouts).shuffleGrouping("spout");
        TopologyPlan plan = TopologyPlan.build("wide", "wide-1", conf, b.createTopology(), defaults);
        try (SharedTimer timer = new SharedTimer("wide-timer")) {
            TopologyRuntime runtime = new TopologyRuntime(plan, LargeParallelismTest.class.getClassLoader(), timer,
                r -> { });
            try {
                runtime.start(false);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (READY.get() < executors) {
                    assertTrue(System.nanoTime() < deadline, "every task ready in 120 s; " + READY.get());
                    Thread.sleep(5);
                }
                assertEquals(executors, runtime.executors().length, "one executor per task");
                long count = 0;
                for (Executor e : runtime.executors()) {
                    count += TaskProbes.consumerSlots(e.outbox());
                    for (TaskRunner t : e.tasks()) {
                        if (t instanceof BoltTask bolt) {
                            count += TaskProbes.linkCount(bolt);
                        }
                    }
                }
                return count;
            } finally {
                runtime.stopNow();
            }
        }
    }

    @Test
    void whatASubmitBuildsIsLinearInTheExecutorCount() throws Exception {
        long small = structuresAfterSubmit(300);
        long large = structuresAfterSubmit(600);
        // an eager all-to-all build holds 75 x 225 links and 300 x 300 slots at 300 executors, four times that at 600
        assertTrue(small <= 4 * 300 && large <= 4 * 600, "links and outbox slots: " + small + " at 300 executors, "
            + large + " at 600");
    }
}
