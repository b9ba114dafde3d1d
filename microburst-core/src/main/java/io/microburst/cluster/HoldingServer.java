package io.microburst.cluster;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.storm.shade.org.apache.zookeeper.server.Request;
import org.apache.storm.shade.org.apache.zookeeper.server.ZooKeeperServer;

/**
 * The transactional state server's ZooKeeper server: ZooKeeper's own, except that each request passes the
 * {@link StateReadHold}s of upgrades under way first, which may hold it back.
 *
 * <p>Threading: requests arrive on ZooKeeper's request throttler thread; holds are added by an upgrading thread and
 * released (their requests submitted) on it.
 */
final class HoldingServer extends ZooKeeperServer {
    private final List<StateReadHold> holds = new CopyOnWriteArrayList<>();

    HoldingServer(File snapDir, File logDir, int tickTime) throws IOException {
        super(snapDir, logDir, tickTime);
    }

    /** A new hold of the requests under {@code root}, capturing the sessions created from now on. */
    StateReadHold hold(String root) {
        holds.removeIf(StateReadHold::isDone);
        StateReadHold hold = new StateReadHold(super::submitRequestNow, root);
        holds.add(hold);
        return hold;
    }

    @Override
    public void submitRequestNow(Request request) {
        for (StateReadHold hold : holds) {
            if (hold.offer(request)) {
                return;
            }
        }
        super.submitRequestNow(request);
    }
}
