package io.microburst.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.MicroburstConfig;
import java.time.Duration;
import java.util.List;
import org.apache.storm.Config;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * At-least-once under faults: a replaying, sequence-numbered spout and two bolts that at random fail, drop or throw
 * on about 1% of the tuples. Every number must in the end be acked once at the spout and reach the sink at least
 * once; duplicates are counted and reported, not forbidden.
 */
// try-with-resources is used only to stop the topology, whatever happens.
@SuppressWarnings("try")
class AtLeastOnceUnderFaultsTest extends ReliabilityTestBase {
    private static final int TIMEOUT_SECS = 2;
    private static final double FAIL_RATE = 0.005;
    private static final double DROP_RATE = 0.005;
    private static final double THROW_RATE = 0.00002;
    private static final long MAX_THROWS = 20;

    @Test
    void noneOfAMillionSequenceNumbersIsLost() throws Exception {
        int total = count("microburst.it.reliability.faults.tuples", 1_000_000);
        RunRecord run = Runs.start(total);
        try {
            // On Storm a bolt exception makes the worker exit the process, which would end the test JVM.
            long maxThrows = kind == ClusterKind.STORM ? 0 : MAX_THROWS;
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("spout", new SequenceSpout(run.id(), total, true), 1);
            builder.setBolt("work", new FaultyBolt(run.id(), FAIL_RATE, DROP_RATE, THROW_RATE, maxThrows, false), 2)
                    .shuffleGrouping("spout");
            builder.setBolt("sink", new FaultyBolt(run.id(), FAIL_RATE, DROP_RATE, THROW_RATE, maxThrows, true), 2)
                    .shuffleGrouping("work");
            Config conf = conf(TIMEOUT_SECS);
            conf.put(MicroburstConfig.TASK_FAILURE_LIMIT, 1_000);
            conf.put(MicroburstConfig.TASK_RESTART_BACKOFF_MS, 10);
            long started = System.nanoTime();
            try (RunningTopology topology = RunningTopology.submit(cluster, "faults", conf, builder.createTopology())) {
                // Any tree left behind times out within 2T and is replayed, so the counts never stand still for long.
                Await.untilWhileProgressing("every sequence number to be acked", Duration.ofMinutes(5),
                        Duration.ofSeconds(30), () -> run.acked() + run.failed() + run.emitted(), () -> run.acked() >= total,
                        () -> "acked " + run.acked() + " failed " + run.failed() + " emitted " + run.emitted());
                Thread.sleep(200);
            }
            long lost = 0;
            long ackedTwice = 0;
            for (int seq = 0; seq < total; seq++) {
                if (run.acksOf(seq) != 1 || run.deliveriesOf(seq) == 0) {
                    lost += run.acksOf(seq) == 0 || run.deliveriesOf(seq) == 0 ? 1 : 0;
                    ackedTwice += run.acksOf(seq) > 1 ? 1 : 0;
                }
            }
            figure("at-least-once under faults", figures("sequence numbers", total, "lost", lost,
                    "duplicates at sink", run.delivered() - (total - lost), "spout emits (with replays)", run.emitted(),
                    "spout fails", run.failed(), "fails injected", run.count("fails injected"),
                    "drops injected", run.count("drops injected"), "throws injected", run.count("throws"),
                    "ids acked twice", ackedTwice, "seconds", (System.nanoTime() - started) / 1e9,
                    "violations", run.violations()));
            assertEquals(0, lost, "sequence numbers lost");
            assertEquals(0, ackedTwice, "sequence numbers acked twice at the spout");
            assertEquals(List.of(), run.violations());
        } finally {
            Runs.end(run);
        }
    }
}
