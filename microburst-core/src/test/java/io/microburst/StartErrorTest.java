package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.hooks.BaseWorkerHook;
import org.apache.storm.task.WorkerUserContext;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * An Error while a topology starts (here from a worker hook, as an OutOfMemoryError would come from a thread that
 * cannot be created) reaches the caller and leaves nothing behind: the topology is not listed, its working directory
 * is gone, the same name can be submitted again, and the cluster still answers and closes.
 */
class StartErrorTest {
    public static class FailingHook extends BaseWorkerHook {
        @Override
        public void start(Map<String, Object> topoConf, WorkerUserContext context) {
            throw new OutOfMemoryError("simulated: unable to create a thread (expected by the test)");
        }
    }

    @Test
    void anErrorDuringStartLeavesNothingHalfStarted() throws Exception {
        TopologyBuilder failing = new TopologyBuilder();
        failing.setSpout("spout", new ReplayingSpout("start-error", 1));
        failing.addWorkerHook(new FailingHook());
        TopologyBuilder fine = new TopologyBuilder();
        fine.setSpout("spout", new ReplayingSpout("start-error-fine", 3));
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            OutOfMemoryError e = assertThrows(OutOfMemoryError.class,
                () -> cluster.submitTopology("starterror", new Config(), failing.createTopology()));
            assertTrue(e.getMessage().contains("simulated"), e.getMessage());
            assertEquals(0, cluster.getTopologySummaries().size(), "not listed");
            assertThrows(NotAliveException.class, () -> cluster.getTopologyInfoByName("starterror"));
            assertEquals(0, workDirs(), "no working directory left");
            cluster.submitTopology("starterror", new Config(), fine.createTopology());
            ReplayingSpout.await("the second submit runs", 60, () -> ReplayingSpout.acked("start-error-fine").size() == 3);
            assertEquals(1, cluster.getTopologySummaries().size());
        }
        assertEquals(0, workDirs(), "no working directory left after close");
    }

    private static int workDirs() {
        String[] names = new File(System.getProperty("java.io.tmpdir")).list((dir, n) -> n.startsWith("microburst-starterror-"));
        return names == null ? 0 : names.length;
    }
}
