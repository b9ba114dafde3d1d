package io.microburst.runtime.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstConfig;
import io.microburst.PacedSpout;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.executor.ExecutorProbes;
import io.microburst.runtime.task.TaskProbes;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.Config;
import org.apache.storm.policy.IWaitStrategy;
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
 * An idle bolt on a thread of its own parks until the topology's spouts are polled next, when they wait out their
 * wait strategy: nothing new enters the topology before then. Counted as the bolt's parks per tuple, from a spout that
 * emits every 10 ms and is polled every millisecond in between. That a bolt stays warm when the spouts wait as the
 * user's own strategy says is shown without timing: the runtime knows the next poll only from Storm's strategies, and
 * a warm bolt parks until a known poll, else a short while at a time.
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
                if (ExecutorProbes.untilPoll(e, System.nanoTime()) < 0) {
                    bolt = e;
                }
            }
            // the first tuple starts the bolt's warm phase; count over the gaps after it
            return (double) ExecutorProbes.parks(bolt) / (EXECUTED.get() - 1);
        }
    }

    @Test
    void anIdleBoltParksUntilTheSpoutsNextPoll() throws Exception {
        // about 10: one park per poll of the spout; parks of 125 µs would take about 60 between two tuples
        double perTuple = boltParksPerTuple(Map.of());
        assertTrue(perTuple <= 25, "bolt parks per tuple: " + perTuple);
    }

    /**
     * Emits 0, 1, 2... up to {@link #ALLOWED}, on every other poll only: the polls in between find nothing, so the spout
     * waits out its wait strategy between any two emits.
     */
    public static class Alternating extends BaseRichSpout {
        static final AtomicInteger ALLOWED = new AtomicInteger();
        private transient SpoutOutputCollector collector;
        private transient int next;
        private transient boolean skip;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            skip = !skip;
            if (!skip && next < ALLOWED.get()) {
                collector.emit(new Values(next++));
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /**
     * Whether the runtime learns when the spouts are polled next: it does from Storm's own wait strategy, never from a
     * user's (which may wait as it likes). Read from the spout executor after polls that found nothing; no timing.
     */
    private static boolean nextPollKnown(Map<String, Object> extra) throws Exception {
        EXECUTED.set(0);
        Alternating.ALLOWED.set(0);
        Map<String, Object> defaults = Utils.readStormConfig();
        Map<String, Object> conf = new HashMap<>(defaults);
        conf.put(MicroburstConfig.FUSION, false);
        conf.put(Config.TOPOLOGY_NAME, "polls");
        conf.putAll(extra);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new Alternating());
        b.setBolt("bolt", new Counting()).shuffleGrouping("spout");
        TopologyPlan plan = TopologyPlan.build("polls", "polls-1", conf, b.createTopology(), defaults);
        try (SharedTimer timer = new SharedTimer("polls-timer")) {
            TopologyRuntime runtime = new TopologyRuntime(plan, BoltParksTest.class.getClassLoader(), timer, r -> { });
            try {
                runtime.start(true);
                long started = System.nanoTime();
                Alternating.ALLOWED.set(3);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (EXECUTED.get() < 3) {
                    assertTrue(System.nanoTime() < deadline, "3 tuples in 30 s; got " + EXECUTED.get());
                    Thread.sleep(5);
                }
                // an empty poll came between the emits, after the start: Storm's strategy stamped the next poll then
                for (Executor e : runtime.executors()) {
                    if (ExecutorProbes.untilPoll(e, System.nanoTime()) >= 0) {
                        return TaskProbes.nextPollNanos(e.inbox()) > started;
                    }
                }
                throw new AssertionError("no spout executor");
            } finally {
                runtime.stopNow();
            }
        }
    }

    @Test
    void onlyStormsOwnWaitStrategyTellsWhenTheSpoutsPollNext() throws Exception {
        assertTrue(nextPollKnown(Map.of()), "Storm's default strategy: next poll known");
        assertFalse(nextPollKnown(Map.of(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY, OwnMillisecond.class.getName())),
            "the user's own strategy: next poll unknown");
    }
}
