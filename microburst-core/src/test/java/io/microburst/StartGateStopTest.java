package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.executor.StartGate;
import io.microburst.runtime.topology.TopologyRuntime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * A new version stopped at its start gate (an upgrade that did not go on) ends its early tasks' subprocesses and never
 * opens or prepares the tasks it held back: the gate's wait ends with the stop, not with the gate.
 * {@code -Dmicroburst.upgrade.repeat=20} runs it 20 times.
 */
class StartGateStopTest {
    @Test
    void aStopAtTheGateCleansUpTheEarlyTasksAndNeverStartsTheOthers() throws Exception {
        assumeTrue(UpgradeEarlyStartTest.pythonAvailable(), "python3 is not installed");
        for (int i = 0; i < Integer.getInteger("microburst.upgrade.repeat", 1); i++) {
            runOnce();
        }
    }

    private void runOnce() throws Exception {
        UpgradeEarlyStartTest.OPENED.clear();
        UpgradeEarlyStartTest.PREPARED.clear();
        Map<String, Object> defaults = Utils.readStormConfig();
        Map<String, Object> conf = new HashMap<>(defaults);
        conf.put(Config.TOPOLOGY_NAME, "gated");
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("words", new UpgradeEarlyStartTest.WordSpout());
        b.setBolt("upper", new UpgradeEarlyStartTest.NotingUpperBolt(), 2).shuffleGrouping("words");
        b.setBolt("record", new UpgradeEarlyStartTest.HoldingRecorder()).shuffleGrouping("upper");
        TopologyPlan plan = TopologyPlan.build("gated", "gated-1", conf, b.createTopology(), defaults);
        try (SharedTimer timer = new SharedTimer("gated-timer")) {
            TopologyRuntime runtime = new TopologyRuntime(plan, StartGateStopTest.class.getClassLoader(), timer,
                r -> { });
            StartGate gate = new StartGate(Set.of("upper"));
            runtime.holdLateTasks(gate);
            try {
                runtime.start(false);
                assertTrue(gate.awaitEarly(runtime.executorCount(), TimeUnit.SECONDS.toMillis(60)),
                    "every executor started its early tasks within 60 s");
                assertEquals(List.of("gated-1", "gated-1"), UpgradeEarlyStartTest.PREPARED, "both shell bolts");
                assertEquals(2, pythonChildren(), "their subprocesses run");
            } finally {
                runtime.stopNow();
            }
            assertEquals(0, runtime.liveExecutorThreads(), "every executor thread ended");
            assertEquals(List.of(), UpgradeEarlyStartTest.OPENED, "the held-back spout never opened");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (pythonChildren() > 0) {
                assertTrue(System.nanoTime() < deadline, "the subprocesses end within 30 s of the stop");
                Thread.sleep(5);
            }
        }
    }

    private static long pythonChildren() {
        return ProcessHandle.current().descendants()
            .filter(p -> p.isAlive() && p.info().command().orElse("").contains("python")).count();
    }
}
