package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.Config;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.hooks.BaseTaskHook;
import org.apache.storm.hooks.info.BoltExecuteInfo;
import org.apache.storm.hooks.info.SpoutAckInfo;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A task hook that throws is user code failing, as a throwing callback is: reported as its task's error and the task
 * restarted, never an executor thread killed. Every message id is still acked in the end.
 */
class ThrowingHookTest {
    /** Which hook method throws, once, per run. */
    static final Map<String, String> THROWS_IN = new ConcurrentHashMap<>();
    static final Map<String, AtomicBoolean> THROWN = new ConcurrentHashMap<>();
    static volatile String currentRun;

    /** Throws once from the method the current run names. */
    public static class OnceThrowingHook extends BaseTaskHook {
        private void maybeThrow(String method) {
            String run = currentRun;
            if (method.equals(THROWS_IN.get(run)) && THROWN.get(run).compareAndSet(false, true)) {
                throw new IllegalStateException("hook " + method + " throws (expected by the test)");
            }
        }

        @Override
        public void boltExecute(BoltExecuteInfo info) {
            maybeThrow("boltExecute");
        }

        @Override
        public void spoutAck(SpoutAckInfo info) {
            maybeThrow("spoutAck");
        }
    }

    public static class Sink extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            // acked by the basic bolt's executor
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            // emits nothing
        }
    }

    @ParameterizedTest(name = "{0}, fusion {1}")
    @CsvSource({"boltExecute,false", "boltExecute,true", "spoutAck,false"})
    void aThrowingHookFailsItsTaskOnlyAndEveryIdIsAcked(String method, boolean fusion) throws Exception {
        String run = "hook-" + method + "-" + fusion;
        THROWS_IN.put(run, method);
        THROWN.put(run, new AtomicBoolean());
        currentRun = run;
        int count = 2_000;
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ReplayingSpout(run, count));
        b.setBolt("sink", new Sink()).shuffleGrouping("spout");
        Config conf = new Config();
        conf.put(MicroburstConfig.FUSION, fusion);
        conf.put(MicroburstConfig.TASK_RESTART_BACKOFF_MS, 10);
        conf.put(Config.TOPOLOGY_AUTO_TASK_HOOKS, List.of(OnceThrowingHook.class.getName()));
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology(run, conf, b.createTopology());
            int threads = cluster.liveExecutors();
            ReplayingSpout.await("every id acked", 60, () -> ReplayingSpout.acked(run).size() == count);
            assertTrue(THROWN.get(run).get(), "the hook threw");
            TopologyInfo info = cluster.getTopologyInfoByName(run);
            assertEquals("ACTIVE", info.get_status());
            String failing = method.startsWith("spout") ? "spout" : "sink";
            List<ErrorInfo> errors = info.get_errors().get(failing);
            assertTrue(errors != null && errors.stream().anyMatch(e -> e.get_error().contains("hook " + method + " throws")),
                "the hook's error is reported for '" + failing + "': " + info.get_errors());
            assertEquals(threads, cluster.liveExecutors(), "executor threads still running");
        }
    }
}
