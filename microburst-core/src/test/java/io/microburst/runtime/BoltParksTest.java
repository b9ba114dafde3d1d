package io.microburst.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstConfig;
import io.microburst.PacedSpout;
import io.microburst.plan.TopologyPlan;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.Config;
import org.apache.storm.policy.IWaitStrategy;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * An idle bolt on a thread of its own parks until the topology's spouts are polled next, when they wait out their
 * wait strategy: nothing new enters the topology before then. Counted as the bolt's parks per tuple, from a spout that
 * emits every 10 ms and is polled every millisecond in between.
 */
class BoltParksTest {
    static final AtomicInteger EXECUTED = new AtomicInteger();

    public static class Counting extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            EXECUTED.incrementAndGet();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            // emits nothing
        }
    }

    /** A wait strategy of the user's own: sleeps a millisecond, as Storm's default does, but the runtime cannot know. */
    public static class OwnMillisecond implements IWaitStrategy {
        @Override
        public void prepare(Map<String, Object> conf, WaitSituation waitSituation) {
        }

        @Override
        public int idle(int idleCounter) throws InterruptedException {
            Thread.sleep(1);
            return idleCounter + 1;
        }
    }

    private static double boltParksPerTuple(Map<String, Object> extra) throws Exception {
        EXECUTED.set(0);
        Map<String, Object> defaults = Utils.readStormConfig();
        Map<String, Object> conf = new HashMap<>(defaults);
        conf.put(MicroburstConfig.FUSION, false);
        conf.put(Config.TOPOLOGY_NAME, "parks");
        conf.putAll(extra);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new PacedSpout());
        b.setBolt("bolt", new Counting()).shuffleGrouping("spout");
        TopologyPlan plan = TopologyPlan.build("parks", "parks-1", conf, b.createTopology(), defaults);
        try (SharedTimer timer = new SharedTimer("parks-timer")) {
            TopologyRuntime runtime = new TopologyRuntime(plan, BoltParksTest.class.getClassLoader(), timer, r -> { });
            Executor bolt = null;
            try {
                runtime.start(true);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (EXECUTED.get() < 41) {
                    assertTrue(System.nanoTime() < deadline, "41 tuples in 20 s; got " + EXECUTED.get());
                    Thread.sleep(5);
                }
            } finally {
                runtime.stopNow();
            }
            for (Executor e : runtime.executors()) {
                if (e.untilPoll(System.nanoTime()) < 0) {
                    bolt = e;
                }
            }
            // the first tuple starts the bolt's warm phase; count over the gaps after it
            return (double) bolt.parks() / (EXECUTED.get() - 1);
        }
    }

    @Test
    void anIdleBoltParksUntilTheSpoutsNextPoll() throws Exception {
        // about 10: one park per poll of the spout; parks of 125 µs would take about 60 between two tuples
        double perTuple = boltParksPerTuple(Map.of());
        assertTrue(perTuple <= 25, "bolt parks per tuple: " + perTuple);
    }

    @Test
    void aBoltStaysWarmWhenItsSpoutWaitsAsTheUsersOwnStrategySays() throws Exception {
        double aligned = boltParksPerTuple(Map.of());
        double warm = boltParksPerTuple(Map.of(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY, OwnMillisecond.class.getName()));
        assertTrue(warm > 2 * aligned, "parks per tuple with the user's wait " + warm + ", with Storm's " + aligned);
    }
}
