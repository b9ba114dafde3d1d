package io.microburst.stormcluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The configuration files a cluster's daemons read, written into the data directory's {@code conf/}: Storm's
 * {@code storm.yaml} (every daemon and worker on 127.0.0.1, with the cluster's ports) and ZooKeeper's {@code zoo.cfg}.
 *
 * <p>Threading: stateless; any thread.
 */
final class ClusterConfigFiles {
    private ClusterConfigFiles() {
    }

    static Path stormYaml(Path dataDir) {
        return dataDir.resolve("conf/storm.yaml");
    }

    static Path zooCfg(Path dataDir) {
        return dataDir.resolve("conf/zoo.cfg");
    }

    /** Writes both files for the cluster {@code state} describes. */
    static void write(Path dataDir, ClusterState state) throws IOException {
        String yaml = "# Written by StormCluster: a single-machine Apache Storm cluster on 127.0.0.1.\n"
            + "storm.zookeeper.servers: [\"127.0.0.1\"]\n"
            + "storm.zookeeper.port: " + state.zookeeperPort() + "\n"
            + "storm.local.hostname: \"127.0.0.1\"\n"
            + "storm.local.dir: \"" + dataDir.resolve("storm-local") + "\"\n"
            // Nimbus' metrics store; relative, it would be written into the Storm home.
            + "storm.metricstore.rocksdb.location: \"" + dataDir.resolve("storm-local/metrics") + "\"\n"
            + "nimbus.seeds: [\"127.0.0.1\"]\n"
            + "nimbus.thrift.port: " + state.nimbusPort() + "\n"
            + "supervisor.thrift.port: " + state.supervisorPort() + "\n"
            + "supervisor.slots.ports: [" + state.slotPorts() + "]\n"
            // Storm's default scheduler honours topology.workers (the resource-aware one packs executors instead).
            + "storm.scheduler: \"org.apache.storm.scheduler.DefaultScheduler\"\n"
            + "worker.heap.memory.mb: 512\n"
            + "worker.childopts: \"-Xmx%HEAP-MEM%m\"\n"
            // One machine: no reason to wait for Nimbus' 10 s monitor before an assignment or a rebalance.
            + "nimbus.monitor.freq.secs: 2\n"
            // Nor for the supervisor's 30 s check for newer versions of the blobs that topologies localize.
            + "supervisor.localizer.update.blob.interval.secs: 1\n";
        Files.writeString(stormYaml(dataDir), yaml, StandardCharsets.UTF_8);
        String zoo = "tickTime=2000\n"
            + "dataDir=" + dataDir.resolve("zookeeper") + "\n"
            + "clientPort=" + state.zookeeperPort() + "\n"
            + "clientPortAddress=127.0.0.1\n"
            + "maxClientCnxns=0\n"
            + "admin.enableServer=false\n";
        Files.writeString(zooCfg(dataDir), zoo, StandardCharsets.UTF_8);
    }
}
