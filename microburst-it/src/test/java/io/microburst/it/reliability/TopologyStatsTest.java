package io.microburst.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.storm.Config;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/** Complete latency per spout and execute/process latency per bolt appear in getTopologyInfo's executor stats. */
// try-with-resources is used only to stop the topology, whatever happens.
@SuppressWarnings("try")
class TopologyStatsTest extends ReliabilityTestBase {
    @Test
    void completeLatencyPerSpoutAndExecuteAndProcessLatencyPerBoltAreReported() throws Exception {
        int total = 2_000;
        RunRecord run = Runs.start(total);
        try {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("spout", new SequenceSpout(run.id(), total, false), 1);
            builder.setBolt("slow", new SlowBolt(run.id(), 200_000, true), 1).shuffleGrouping("spout");
            builder.setBolt("sink", new AckBolt(run.id()), 1).shuffleGrouping("slow");
            Config conf = conf(60);
            conf.put(Config.TOPOLOGY_STATS_SAMPLE_RATE, 1.0);
            AtomicReference<ExecutorStatsReader> stats = new AtomicReference<>();
            try (RunningTopology topology = RunningTopology.submit(cluster, "stats", conf, builder.createTopology())) {
                Await.until("every tuple to be acked", Duration.ofSeconds(60), () -> run.acked() >= total);
                // Stats reach the cluster's view asynchronously (on Storm with heartbeats): wait for the final counts.
                Await.until("the stats to show every ack", Duration.ofSeconds(90), () -> {
                    stats.set(read(topology));
                    return stats.get().spoutAcked("spout") >= total && stats.get().boltAcked("sink") >= total;
                }, () -> "spout acked " + stats.get().spoutAcked("spout") + ", sink acked " + stats.get().boltAcked("sink"));
            }
            ExecutorStatsReader reader = stats.get();
            figure("topology stats", figures("spout acked", reader.spoutAcked("spout"),
                    "spout complete ms avg", reader.spoutCompleteMsAvg("spout"),
                    "slow execute ms avg", reader.boltExecuteMsAvg("slow"),
                    "slow process ms avg", reader.boltProcessMsAvg("slow"),
                    "sink acked", reader.boltAcked("sink")));
            assertEquals(total, reader.spoutAcked("spout"), "spout acked count");
            assertEquals(total, reader.boltAcked("slow"), "slow bolt acked count");
            assertTrue(reader.spoutCompleteMsAvg("spout") >= 0.2, "complete latency covers the 0.2 ms bolt");
            assertTrue(reader.boltExecuteMsAvg("slow") >= 0.2, "execute latency covers the 0.2 ms bolt");
            assertTrue(reader.boltProcessMsAvg("slow") >= 0.2, "process latency covers the 0.2 ms bolt");
        } finally {
            Runs.end(run);
        }
    }

    private static ExecutorStatsReader read(RunningTopology topology) {
        try {
            return new ExecutorStatsReader(cluster.getTopologyInfoByName(topology.name()));
        } catch (Exception e) {
            throw new IllegalStateException("getTopologyInfoByName failed", e);
        }
    }
}
