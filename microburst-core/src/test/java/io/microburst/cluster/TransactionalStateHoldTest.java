package io.microburst.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.shade.org.apache.zookeeper.CreateMode;
import org.apache.storm.shade.org.apache.zookeeper.KeeperException;
import org.apache.storm.shade.org.apache.zookeeper.Watcher;
import org.apache.storm.shade.org.apache.zookeeper.ZooDefs;
import org.apache.storm.shade.org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/**
 * An upgrade's hold in the transactional state server: a session created while it captures (the new version's) may
 * create nodes that exist, but its first read waits, while the sessions opened before (the old version's) read and
 * write on; released, the read is answered with the old version's last write. Aborted, the read is never answered,
 * and sessions created after the capture stopped are served. {@code -Dmicroburst.upgrade.repeat=20} runs it 20 times.
 */
class TransactionalStateHoldTest {
    private static final String PATH = "/transactional/words/coordinator";

    @Test
    void aHeldReadIsAnsweredAfterTheReleaseWithTheOldVersionsLastWrite() throws Exception {
        for (int i = 0; i < Integer.getInteger("microburst.upgrade.repeat", 1); i++) {
            try (TransactionalStateServer server = TransactionalStateServer.start(null)) {
                ZooKeeper old = connect(server);
                old.create("/transactional", null, ZooDefs.Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
                old.create("/transactional/words", null, ZooDefs.Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
                old.create(PATH, bytes("1"), ZooDefs.Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
                StateReadHold hold = server.holdNewSessions("/transactional");
                ZooKeeper next = connect(server);
                assertThrows(KeeperException.NodeExistsException.class, () -> next.create("/transactional", null,
                    ZooDefs.Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT), "a held session's create of a node there");
                CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> read(next));
                assertTrue(hold.awaitHeldSessions(1, 10_000), "the new session's read held");
                old.setData(PATH, bytes("2"), -1);
                assertArrayEquals(bytes("2"), old.getData(PATH, false, null), "the old session reads on");
                assertFalse(read.isDone(), "the held read answered before the release");
                hold.release();
                assertArrayEquals(bytes("2"), read.get(10, TimeUnit.SECONDS), "the held read after the release");
                assertArrayEquals(bytes("2"), next.getData(PATH, false, null), "the new session after the release");
                old.close();
                next.close();
            }
        }
    }

    @Test
    void anAbortedHoldNeverAnswersAHeldRead() throws Exception {
        for (int i = 0; i < Integer.getInteger("microburst.upgrade.repeat", 1); i++) {
            try (TransactionalStateServer server = TransactionalStateServer.start(null)) {
                ZooKeeper old = connect(server);
                old.create("/transactional", bytes("0"), ZooDefs.Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
                StateReadHold hold = server.holdNewSessions("/transactional");
                ZooKeeper next = connect(server);
                CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> read(next, "/transactional"));
                assertTrue(hold.awaitHeldSessions(1, 10_000), "the new session's read held");
                hold.abort();
                assertArrayEquals(bytes("0"), old.getData("/transactional", false, null), "the old session reads on");
                hold.stopCapturing();
                ZooKeeper later = connect(server);
                assertArrayEquals(bytes("0"), later.getData("/transactional", false, null),
                    "a session created after the capture stopped");
                assertFalse(read.isDone(), "the held read answered after the abort");
                next.close(); // its pending read fails; it was never answered
                ExecutionException failed = assertThrows(ExecutionException.class,
                    () -> read.get(10, TimeUnit.SECONDS), "the held read after its session closed");
                assertTrue(failed.getCause() instanceof IllegalStateException, "not answered: " + failed.getCause());
                old.close();
                later.close();
            }
        }
    }

    private static byte[] read(ZooKeeper zk) {
        return read(zk, PATH);
    }

    private static byte[] read(ZooKeeper zk, String path) {
        try {
            return zk.getData(path, false, null);
        } catch (KeeperException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ZooKeeper connect(TransactionalStateServer server) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(server.host() + ":" + server.port(), 20_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        assertTrue(connected.await(10, TimeUnit.SECONDS), "connected");
        String payload = (String) server.topologyConf().get(Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_PAYLOAD);
        zk.addAuthInfo("digest", payload.getBytes(StandardCharsets.UTF_8));
        assertEquals(ZooKeeper.States.CONNECTED, zk.getState());
        return zk;
    }
}
