package io.microburst.cli.testsupport;

import org.apache.storm.LocalCluster;

/**
 * Apache Storm's own LocalCluster, with a ZooKeeper that listens on loopback only, constructible without arguments so
 * that {@code -Dmicroburst.cluster.class} can select it. Closing it also stops its ZooKeeper.
 */
@SuppressWarnings("try") // LocalCluster.close() declares Exception; callers handle it
public final class StormLocalClusterOnLoopback extends LocalCluster {
    /** Set by {@link #startZookeeper()} just before the superclass constructor runs; one cluster per JVM at a time. */
    private static LoopbackZookeeper startingZookeeper;
    private final LoopbackZookeeper zookeeper;

    public StormLocalClusterOnLoopback() throws Exception {
        super(zookeeperHost(), startedZookeeperPort());
        this.zookeeper = startingZookeeper;
        startingZookeeper = null;
    }

    private static synchronized String zookeeperHost() throws Exception {
        startingZookeeper = new LoopbackZookeeper();
        return startingZookeeper.host();
    }

    private static synchronized Long startedZookeeperPort() {
        return startingZookeeper.port();
    }

    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            zookeeper.close();
        }
    }
}
