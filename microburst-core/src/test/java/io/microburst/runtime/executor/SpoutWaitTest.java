package io.microburst.runtime.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.policy.IWaitStrategy;
import org.apache.storm.policy.WaitStrategyPark;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/** Storm's spout wait strategy, read from a spout's configuration. */
class SpoutWaitTest {
    private static final ClassLoader LOADER = SpoutWaitTest.class.getClassLoader();

    /** A user's strategy: remembers how it was prepared. */
    public static class CountingWait implements IWaitStrategy {
        WaitSituation situation;
        Object seen;

        @Override
        public void prepare(Map<String, Object> conf, WaitSituation waitSituation) {
            situation = waitSituation;
            seen = conf.get("custom.key");
        }

        @Override
        public int idle(int idleCounter) {
            return idleCounter + 1;
        }
    }

    private static SpoutWait of(Map<String, Object> conf) {
        return SpoutWait.of(conf, LOADER, "words");
    }

    @Test
    void stormsDefaultsPollAgainAMillisecondLater() {
        for (Map<String, Object> conf : java.util.List.of(Map.<String, Object>of(), Utils.readDefaultConfig())) {
            SpoutWait wait = of(conf);
            assertNull(wait.custom());
            assertEquals(1_000_000, wait.parkNanos(0), "the first idle turn already parks, as Storm sleeps");
            assertEquals(1_000_000, wait.parkNanos(1000));
        }
    }

    @Test
    void progressiveLevelsSpinThenParkBrieflyThenParkForTheSleep() {
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_SPOUT_WAIT_PROGRESSIVE_LEVEL1_COUNT, 3);
        conf.put(Config.TOPOLOGY_SPOUT_WAIT_PROGRESSIVE_LEVEL2_COUNT, 2);
        conf.put(Config.TOPOLOGY_SPOUT_WAIT_PROGRESSIVE_LEVEL3_SLEEP_MILLIS, 5);
        SpoutWait wait = of(conf);
        long[] expected = {0, 0, 0, 1, 1, 5_000_000, 5_000_000};
        for (int turn = 0; turn < expected.length; turn++) {
            assertEquals(expected[turn], wait.parkNanos(turn), "idle turn " + turn);
        }
        assertEquals(5_000_000, wait.parkNanos(Integer.MAX_VALUE));
    }

    @Test
    void parkStrategyParksItsMicrosecondsAndZeroSpins() {
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY, WaitStrategyPark.class.getName());
        conf.put(Config.TOPOLOGY_SPOUT_WAIT_PARK_MICROSEC, 250);
        assertEquals(250_000, of(conf).parkNanos(0));
        assertEquals(250_000, of(conf).parkNanos(99));
        conf.put(Config.TOPOLOGY_SPOUT_WAIT_PARK_MICROSEC, 0);
        assertEquals(0, of(conf).parkNanos(0));
        assertEquals(0, of(conf).parkNanos(Integer.MAX_VALUE - 1));
    }

    @Test
    void aUsersStrategyIsCreatedAndPreparedForSpoutWaits() {
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY, CountingWait.class.getName());
        conf.put("custom.key", "custom value");
        CountingWait strategy = assertInstanceOf(CountingWait.class, of(conf).custom());
        assertEquals(IWaitStrategy.WaitSituation.SPOUT_WAIT, strategy.situation);
        assertEquals("custom value", strategy.seen);
    }

    @Test
    void aClassThatIsNoWaitStrategyIsRefusedNamingTheSpoutAndTheKey() {
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY, String.class.getName());
        String message = assertThrows(IllegalArgumentException.class, () -> of(conf)).getMessage();
        assertTrue(message.contains("'words'") && message.contains(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY)
            && message.contains("java.lang.String"), message);
        conf.put(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY, "com.example.NoSuchWait");
        message = assertThrows(IllegalArgumentException.class, () -> of(conf)).getMessage();
        assertTrue(message.contains("'words'") && message.contains("com.example.NoSuchWait"), message);
    }

    @Test
    void aNegativeLevelIsRefused() {
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_SPOUT_WAIT_PROGRESSIVE_LEVEL2_COUNT, -1);
        String message = assertThrows(IllegalArgumentException.class, () -> of(conf)).getMessage();
        assertTrue(message.contains("'words'") && message.contains(Config.TOPOLOGY_SPOUT_WAIT_PROGRESSIVE_LEVEL2_COUNT),
            message);
    }
}
