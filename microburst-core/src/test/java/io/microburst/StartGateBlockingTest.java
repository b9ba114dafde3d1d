package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.executor.StartGate;
import io.microburst.runtime.topology.TopologyRuntime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * An early component that blocks in its prepare until the gate is about to open (an upgrade's Trident coordinator,
 * whose read of its state is held) is not waited for by {@link StartGate#awaitEarly}; and a new version stopped
 * meanwhile (an upgrade that failed) ends that prepare by its stop's interrupt, never opens the tasks it held back,
 * and leaves no executor thread. {@code -Dmicroburst.upgrade.repeat=20} runs it 20 times.
 */
class StartGateBlockingTest {
    static final List<String> BLOCKED = new CopyOnWriteArrayList<>();
    static final List<String> INTERRUPTED = new CopyOnWriteArrayList<>();
    static volatile CountDownLatch release;

    @Test
    void aBlockingEarlyTaskIsNotWaitedForAndAStopEndsIt() throws Exception {
        for (int i = 0; i < Integer.getInteger("microburst.upgrade.repeat", 1); i++) {
            runOnce();
        }
    }

    private void runOnce() throws Exception {
        UpgradeEarlyStartTest.OPENED.clear();
        BLOCKED.clear();
        INTERRUPTED.clear();
        release = new CountDownLatch(1);
        Map<String, Object> defaults = Utils.readStormConfig();
        Map<String, Object> conf = new HashMap<>(defaults);
        conf.put(Config.TOPOLOGY_NAME, "blocking");
        conf.put(MicroburstConfig.EXECUTOR_STOP_TIMEOUT_MS, 2_000); // the interrupt comes at half of it
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("words", new UpgradeEarlyStartTest.WordSpout());
        b.setBolt("coordinator", new Blocking()).shuffleGrouping("words");
        TopologyPlan plan = TopologyPlan.build("blocking", "blocking-1", conf, b.createTopology(), defaults);
        try (SharedTimer timer = new SharedTimer("blocking-timer")) {
            TopologyRuntime runtime = new TopologyRuntime(plan, StartGateBlockingTest.class.getClassLoader(), timer,
                r -> { });
            StartGate gate = new StartGate(Set.of("coordinator"), Set.of("coordinator"));
            runtime.holdLateTasks(gate);
            try {
                runtime.start(false);
                assertTrue(gate.awaitEarly(runtime.executorCount(), TimeUnit.SECONDS.toMillis(60)),
                    "every executor arrived, the blocking one before its early task");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (BLOCKED.isEmpty()) {
                    assertTrue(System.nanoTime() < deadline, "the blocking task's prepare began within 30 s");
                    Thread.sleep(5);
                }
            } finally {
                runtime.stopNow();
            }
            assertEquals(0, runtime.liveExecutorThreads(), "every executor thread ended");
            assertEquals(List.of("blocking-1"), INTERRUPTED, "the blocked prepare ended by the stop's interrupt");
            assertEquals(List.of(), UpgradeEarlyStartTest.OPENED, "the held-back spout never opened");
        }
    }

    /** Blocks in its prepare until {@link #release} (never, here) or an interrupt. */
    public static final class Blocking extends BaseRichBolt {
        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            BLOCKED.add(context.getStormId());
            try {
                release.await();
            } catch (InterruptedException e) {
                INTERRUPTED.add(context.getStormId());
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void execute(Tuple input) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
