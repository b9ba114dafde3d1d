package io.microburst.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.apache.storm.Config;
import org.junit.jupiter.api.Test;

/** What the builder's settings make: Storm's LocalCluster.Builder configuration, with the daemon configuration last. */
class ClusterSettingsTest {
    @Test
    void builderConfIsLocalModeWithoutTimeoutsUnderTheDaemonConf() {
        ClusterSettings settings = new ClusterSettings();
        Map<String, Object> conf = settings.builderConf();
        assertEquals(false, conf.get(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS));
        assertEquals(50, conf.get(Config.TOPOLOGY_TRIDENT_BATCH_EMIT_INTERVAL_MILLIS));

        settings.daemonConf(Map.of(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, true, "a", 1));
        settings.daemonConf("b", 2);
        settings.daemonConf(null);
        conf = settings.builderConf();
        assertEquals(true, conf.get(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS));
        assertEquals(1, conf.get("a"));
        assertEquals(2, conf.get("b"));

        settings.daemonConf(Map.of("c", 3));
        assertNull(settings.builderConf().get("a"), "withDaemonConf(Map) replaces what was set before");
    }

    @Test
    void clusterConfIsStormsUnderTheOverridesInLocalMode() {
        Map<String, Object> conf = ClusterSettings.clusterConf(Map.of(Config.STORM_CLUSTER_MODE, "distributed",
            Config.TOPOLOGY_WORKERS, 7));
        assertEquals("local", conf.get(Config.STORM_CLUSTER_MODE));
        assertEquals(7, conf.get(Config.TOPOLOGY_WORKERS));
        assertEquals(30, ((Number) conf.get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS)).intValue(), "from defaults.yaml");
    }

    @Test
    void settingsWithoutEffectAreStillChecked() {
        ClusterSettings.checkSupervisors(0);
        ClusterSettings.checkSlotPortMin(null);
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.checkSupervisors(-1));
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.checkPortsPerSupervisor(-1));
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.checkSlotPortMin(0));
    }
}
