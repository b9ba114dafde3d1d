package io.microburst.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.storm.Config;
import org.apache.storm.shade.org.apache.zookeeper.CreateMode;
import org.apache.storm.shade.org.apache.zookeeper.Watcher;
import org.apache.storm.shade.org.apache.zookeeper.ZooDefs;
import org.apache.storm.shade.org.apache.zookeeper.ZooKeeper;
import org.apache.storm.shade.org.apache.zookeeper.server.SyncRequestProcessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-process ZooKeeper that Trident's coordinators write to keeps only the snapshots and transaction logs it
 * needs: ZooKeeper rolls a new log (preallocated to 64 MB) at each snapshot and never deletes old ones itself, so a
 * server holding a Trident topology for days filled its disk. Snapshots are taken here every few dozen writes instead
 * of about every 100,000, so that the test sees many.
 */
class TransactionalStatePurgeTest {
    @TempDir
    Path work;

    @Test
    void aPurgeKeepsTheLastSnapshotsAndTheLogsTheyNeed() throws Exception {
        int snapCount = SyncRequestProcessor.getSnapCount();
        SyncRequestProcessor.setSnapCount(20);
        try (TransactionalStateServer server = TransactionalStateServer.start(work)) {
            write(server, 400);
            Path data = versionDir();
            waitFor(() -> count(data, "snapshot.") > TransactionalStateServer.SNAPSHOTS_KEPT + 3);
            int logsBefore = count(data, "log.");
            server.purge();
            List<Long> snapshots = zxids(data, "snapshot.");
            List<Long> logs = zxids(data, "log.");
            assertTrue(snapshots.size() <= TransactionalStateServer.SNAPSHOTS_KEPT, snapshots.size() + " snapshots kept");
            // a log rolls at each snapshot ZooKeeper starts, also when it skips writing one that comes too soon:
            // what the kept snapshots need is every log from the one holding the oldest kept snapshot's zxid on
            long oldest = snapshots.get(0);
            long olderLogs = logs.stream().filter(z -> z <= oldest).count();
            assertTrue(olderLogs <= 1 && logs.size() < logsBefore,
                logs.size() + " logs kept of " + logsBefore + ", " + olderLogs + " of them up to the oldest snapshot");
        } finally {
            SyncRequestProcessor.setSnapCount(snapCount);
        }
    }

    private static void write(TransactionalStateServer server, int nodes) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(server.host() + ":" + server.port(), 30_000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        try {
            assertTrue(connected.await(60, TimeUnit.SECONDS), "connected to the state server");
            String payload = (String) server.topologyConf().get(Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_PAYLOAD);
            zk.addAuthInfo("digest", payload.getBytes(StandardCharsets.UTF_8));
            zk.create("/purge", new byte[0], ZooDefs.Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
            for (int i = 0; i < nodes; i++) {
                zk.setData("/purge", new byte[] {(byte) i}, -1);
            }
        } finally {
            zk.close();
        }
    }

    private Path versionDir() throws Exception {
        try (Stream<Path> found = Files.walk(work)) {
            List<Path> dirs = found.filter(p -> p.getFileName().toString().equals("version-2")).toList();
            assertTrue(dirs.size() == 1, "one ZooKeeper data folder: " + dirs);
            return dirs.get(0);
        }
    }

    private static List<Long> zxids(Path dir, String prefix) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix))
                .map(n -> Long.parseLong(n.substring(prefix.length()), 16)).sorted().toList();
        }
    }

    private static int count(Path dir, String prefix) {
        try (Stream<Path> files = Files.list(dir)) {
            return (int) files.filter(p -> p.getFileName().toString().startsWith(prefix)).count();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for snapshots");
            Thread.sleep(10);
        }
    }
}
