package io.microburst.bench.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.junit.jupiter.api.Test;

class StormProfileTest {
    @Test
    void throughputProfileIsStormPerfs() {
        Map<String, Object> conf = new HashMap<>(Map.of(Config.TOPOLOGY_ACKER_EXECUTORS, 1));
        StormProfile.applyTuned(conf, false);
        assertEquals(1000, conf.get(Config.TOPOLOGY_PRODUCER_BATCH_SIZE));
        assertEquals(50_000, conf.get(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE));
        assertEquals(true, conf.get(Config.TOPOLOGY_DISABLE_LOADAWARE_MESSAGING));
        assertEquals(0.0005, conf.get(Config.TOPOLOGY_STATS_SAMPLE_RATE));
        assertEquals(8, conf.get(Config.TOPOLOGY_SPOUT_RECVQ_SKIPS));
        assertEquals(1000, conf.get(Config.TOPOLOGY_MAX_SPOUT_PENDING));
        assertEquals(1, conf.get(Config.TOPOLOGY_ACKER_EXECUTORS), "the workload's own settings stay");
        assertFalse(conf.containsKey(Config.TOPOLOGY_BOLT_WAIT_STRATEGY));
    }

    @Test
    void latencyProfileIsBusyWaitOnly() {
        Map<String, Object> conf = new HashMap<>();
        StormProfile.applyTuned(conf, true);
        assertEquals("org.apache.storm.policy.WaitStrategyPark", conf.get(Config.TOPOLOGY_BOLT_WAIT_STRATEGY));
        assertEquals(0, conf.get(Config.TOPOLOGY_BOLT_WAIT_PARK_MICROSEC));
        assertFalse(conf.containsKey(Config.TOPOLOGY_PRODUCER_BATCH_SIZE), "a big batch would measure the flush timer");
    }
}
