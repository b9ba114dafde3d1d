package io.microburst;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cluster.upgrade.UpgradeOptions;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sleep Storm's idle checkpoint spout is in when an upgrade begins is not part of the output gap: with
 * checkpoints every 80 s the old version's checkpoint spout sleeps 8 s at a time inside {@code nextTuple}, and the
 * upgrade, right after the old version's first commit, finds it at the start of such a sleep. The drain's first mail
 * to it (start the final checkpoint) used to wait for the rest of that sleep, seconds inside the gap; now the spout is
 * woken while the new version starts ({@code CheckpointWake}), so the recorded gap (the old version's last tree to
 * the new version started) stays well under the sleep. Without the wake the gap was 6.1 s (at a 60 s interval).
 * {@code -Dmicroburst.upgrade.repeat=20} runs it 20 times.
 */
class UpgradeCheckpointWakeTest {
    @TempDir
    Path stateDir;

    @Test
    void theOldCheckpointSpoutsSleepIsNotInTheGap() throws Exception {
        for (int i = 0; i < Integer.getInteger("microburst.upgrade.repeat", 1); i++) {
            runOnce(stateDir.resolve("run-" + i));
        }
    }

    private void runOnce(Path dir) throws Exception {
        UpgradeFirstCommitTest.SOURCE.clear();
        UpgradeFirstCommitTest.ACKED.clear();
        UpgradeFirstCommitTest.COMMITTED.set(0);
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_STATE_PROVIDER, "io.microburst.state.RocksDbKeyValueStateProvider");
        conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"directory\": \""
            + dir.toString().replace("\\", "\\\\") + "\"}");
        conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 80_000);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("wake", conf, topology());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (UpgradeFirstCommitTest.COMMITTED.get() < 1) {
                assertTrue(System.nanoTime() < deadline, "the first version's first commit within 60 s");
                Thread.sleep(5);
            }
            Map<String, Object> upgrade = new HashMap<>(conf);
            upgrade.put(UpgradeOptions.UPGRADE, true);
            upgrade.put(UpgradeOptions.WAIT_SECS, 30);
            cluster.submitTopology("wake", upgrade, topology());
            String status = cluster.getTopologySummaryByName("wake").get_sched_status();
            String gap = status.substring(status.indexOf("output gap ") + "output gap ".length());
            long gapMs = Long.parseLong(gap.substring(0, gap.indexOf(' ')));
            assertTrue(gapMs < 4_000, "the recorded gap holds no 8 s sleep of the old checkpoint spout: " + status);
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts("wake", now);
        }
    }

    private static StormTopology topology() {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("ids", new UpgradeFirstCommitTest.QueueSpout());
        builder.setBolt("count", new UpgradeFirstCommitTest.CountBolt(), 1).shuffleGrouping("ids");
        return builder.createTopology();
    }
}
