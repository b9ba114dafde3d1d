package io.microburst.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.storm.Config;
import org.junit.jupiter.api.Test;

/**
 * Ack-tree exactness: random DAGs with fan-out up to 4, emits to the same anchor, self-anchoring, BasicBolt relays
 * and a join that acks only after all its inputs. Every bolt acks, so every spout tuple must be acked exactly once,
 * none failed, and nothing left pending.
 */
// try-with-resources is used only to stop the topology, whatever happens.
@SuppressWarnings("try")
class AckTreeExactnessTest extends ReliabilityTestBase {
    // Chosen to cover two spout tasks, fan-out of 4, BasicBolt, rich and self-anchoring relays, and the side branch.
    private static final long[] SEEDS = {308_841L, 158_380L, 182_137L, 221_732L};
    private static final Duration LIMIT_PER_DAG = Duration.ofMinutes(5);
    /** A healthy run never stands still this long; a lost ack shows up here, not at the 300 s message timeout. */
    private static final Duration STALL_LIMIT = Duration.ofSeconds(60);

    @Test
    void millionSpoutTuplesThroughRandomDagsAreEachAckedExactlyOnce() throws Exception {
        int total = count("microburst.it.reliability.roots", 1_000_000);
        int perDag = total / SEEDS.length;
        List<String> problems = new ArrayList<>();
        long acks = 0;
        long fails = 0;
        long twice = 0;
        long pendingLeft = 0;
        for (int i = 0; i < SEEDS.length; i++) {
            RunRecord run = Runs.start(perDag);
            try {
                RandomAckDag dag = RandomAckDag.draw(SEEDS[i], run.id(), perDag);
                Config conf = conf(300);
                if (i % 2 == 1) {
                    conf.setMaxSpoutPending(5_000);
                }
                // Acking must come out the same whether one-to-one edges are fused into method calls or not.
                boolean fused = i < SEEDS.length / 2;
                conf.put(MicroburstConfig.FUSION, fused);
                String setup = dag.description + (kind == ClusterKind.STORM ? "" : fused ? ", fused" : ", unfused")
                        + (i % 2 == 1 ? ", max pending 5000" : "");
                long started = System.nanoTime();
                try (RunningTopology topology = RunningTopology.submit(cluster, "exact", conf, dag.topology)) {
                    Await.untilWhileProgressing(perDag + " trees to complete", LIMIT_PER_DAG, STALL_LIMIT,
                            () -> run.acked() + run.failed() + run.emitted(), () -> run.acked() + run.failed() >= perDag,
                            () -> "acked " + run.acked() + " failed " + run.failed() + " emitted " + run.emitted());
                    // A little longer, so a duplicate ack or fail racing the last one is seen too.
                    Thread.sleep(200);
                }
                DagTally tally = DagTally.of(run, perDag);
                figure("ack-tree exactness, " + setup, figures(
                        "spout tuples", perDag, "acks", run.acked(), "fails", run.failed(),
                        "ids acked or failed twice", tally.settledTwice, "ids never settled", tally.neverSettled,
                        "sink deliveries != 1", tally.badDeliveries, "pending", run.pending(),
                        "seconds", (System.nanoTime() - started) / 1_000_000_000.0,
                        "violations", run.violations()));
                acks += run.acked();
                fails += run.failed();
                twice += tally.settledTwice;
                pendingLeft += run.pending();
                if (!tally.clean() || !run.violations().isEmpty() || run.acked() != perDag || run.failed() != 0) {
                    problems.add(setup + ": " + tally + ", violations " + run.violations());
                }
            } finally {
                Runs.end(run);
            }
        }
        figure("ack-tree exactness total", figures("spout tuples", perDag * SEEDS.length, "acks", acks,
                "fails", fails, "ids acked or failed twice", twice, "ledger entries left", pendingLeft));
        assertEquals((long) perDag * SEEDS.length, acks, "acks");
        assertEquals(0, fails, "fails");
        assertEquals(0, twice, "ids acked or failed twice");
        assertEquals(0, pendingLeft, "ledger entries left (emitted but never acked or failed)");
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /** Per-id checks over one run. */
    private record DagTally(long settledTwice, long neverSettled, long badDeliveries, long emittedOtherThanOnce) {
        static DagTally of(RunRecord run, int ids) {
            long twice = 0;
            long never = 0;
            long deliveries = 0;
            long emits = 0;
            for (int id = 0; id < ids; id++) {
                int settled = run.acksOf(id) + run.failsOf(id);
                if (settled > 1) {
                    twice++;
                } else if (settled == 0) {
                    never++;
                }
                if (run.deliveriesOf(id) != 1) {
                    deliveries++;
                }
                if (run.emitsOf(id) != 1) {
                    emits++;
                }
            }
            return new DagTally(twice, never, deliveries, emits);
        }

        boolean clean() {
            return settledTwice == 0 && neverSettled == 0 && badDeliveries == 0 && emittedOtherThanOnce == 0;
        }
    }
}
