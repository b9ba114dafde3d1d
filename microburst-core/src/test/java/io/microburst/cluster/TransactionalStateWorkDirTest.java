package io.microburst.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.MicroburstCluster;
import io.microburst.MicroburstConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.storm.Config;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.operation.builtin.Count;
import org.apache.storm.trident.testing.FixedBatchSpout;
import org.apache.storm.trident.testing.MemoryMapState;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-process ZooKeeper that Trident's coordinators use keeps its data in the cluster's working folder
 * ({@code microburst.work.dir}, which the server clears at each start), not in the JVM's temporary folder: a server
 * killed with {@code kill -9} never deletes what it wrote there, and before, every restart of a server holding a
 * Trident topology left another ZooKeeper folder (a 64 MB transaction log among it) in /tmp, found by the server soak.
 */
class TransactionalStateWorkDirTest {
    private static final String PREFIX = "microburst-transactional-state";

    @TempDir
    Path work;

    @Test
    void theStateServersDataIsInTheWorkFolderAndGoneAfterTheClusterStops() throws Exception {
        try (MicroburstCluster cluster = new MicroburstCluster(Map.of(MicroburstConfig.WORK_DIR, work.toString()))) {
            TridentTopology trident = new TridentTopology();
            trident.newStream("words-workdir", new FixedBatchSpout(new Fields("word"), 2, new Values("e")))
                .groupBy(new Fields("word"))
                .persistentAggregate(new MemoryMapState.Factory(), new Count(), new Fields("count"));
            Config conf = new Config();
            conf.put(Config.TOPOLOGY_TRIDENT_BATCH_EMIT_INTERVAL_MILLIS, 20);
            // the state server starts with the submission, before it returns
            cluster.submitTopology("tx-workdir", conf, trident.build());
            assertEquals(1, stateDirs(work).size(), "transactional state folders in the work folder "
                + work + ": " + stateDirs(work));
        }
        assertEquals(List.of(), stateDirs(work), "transactional state folders after the cluster stopped");
    }

    private static List<Path> stateDirs(Path parent) throws IOException {
        try (Stream<Path> entries = Files.list(parent)) {
            return entries.filter(p -> p.getFileName().toString().startsWith(PREFIX)).sorted().toList();
        }
    }
}
