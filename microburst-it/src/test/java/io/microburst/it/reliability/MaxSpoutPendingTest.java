package io.microburst.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.apache.storm.Config;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * topology.max.spout.pending bounds the un-acked tuples of each spout task. In-flight is sampled by the spout after
 * every emit (its own pending set: emitted, not yet acked or failed).
 */
// try-with-resources is used only to stop the topology, whatever happens.
@SuppressWarnings("try")
class MaxSpoutPendingTest extends ReliabilityTestBase {
    private static final int MAX_PENDING = 64;

    @Test
    void inFlightNeverExceedsTheBoundInAnySample() throws Exception {
        int total = count("microburst.it.reliability.pending.tuples", 20_000);
        RunRecord run = Runs.start(total);
        try {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("spout", new SequenceSpout(run.id(), total, false), 2);
            builder.setBolt("slow", new SlowBolt(run.id(), 100_000, true), 2).shuffleGrouping("spout");
            builder.setBolt("sink", new AckBolt(run.id()), 1).shuffleGrouping("slow");
            Config conf = conf(120);
            conf.setMaxSpoutPending(MAX_PENDING);
            try (RunningTopology topology = RunningTopology.submit(cluster, "maxpending", conf, builder.createTopology())) {
                Await.until("every tuple to be acked", Duration.ofMinutes(3), () -> run.acked() + run.failed() >= total,
                        () -> "acked " + run.acked() + " failed " + run.failed() + " emitted " + run.emitted());
            }
            figure("max spout pending " + MAX_PENDING, figures("tuples", total, "spout tasks", 2,
                    "max in-flight seen per task", run.maxInFlightPerTask(), "acks", run.acked(), "fails", run.failed(),
                    "violations", run.violations()));
            assertTrue(run.maxInFlightPerTask() <= MAX_PENDING,
                    "in-flight " + run.maxInFlightPerTask() + " exceeded max pending " + MAX_PENDING);
            assertEquals(total, run.acked());
            assertEquals(0, run.failed());
            assertEquals(List.of(), run.violations());
        } finally {
            Runs.end(run);
        }
    }

    /** STORM-3514: max pending with timeouts disabled must not stall. */
    @Test
    void maxPendingWithTimeoutsDisabledDoesNotStall() throws Exception {
        int total = count("microburst.it.reliability.pending.tuples", 20_000);
        RunRecord run = Runs.start(total);
        try {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("spout", new SequenceSpout(run.id(), total, false), 1);
            builder.setBolt("relay", new RelayBolt(run.id(), false, SequenceSpout.SEQ), 1).shuffleGrouping("spout");
            builder.setBolt("sink", new AckBolt(run.id()), 1).shuffleGrouping("relay");
            Config conf = conf(1);
            conf.put(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, false);
            conf.setMaxSpoutPending(10);
            try (RunningTopology topology = RunningTopology.submit(cluster, "pendingnotimeout", conf,
                    builder.createTopology())) {
                Await.until("every tuple to be acked", Duration.ofMinutes(3), () -> run.acked() >= total,
                        () -> "acked " + run.acked() + " failed " + run.failed() + " emitted " + run.emitted());
            }
            figure("max pending 10, timeouts disabled", figures("tuples", total, "acks", run.acked(),
                    "fails", run.failed(), "max in-flight seen", run.maxInFlightPerTask(), "violations", run.violations()));
            assertEquals(total, run.acked());
            assertTrue(run.maxInFlightPerTask() <= 10, "in-flight " + run.maxInFlightPerTask() + " exceeded 10");
            assertEquals(List.of(), run.violations());
        } finally {
            Runs.end(run);
        }
    }
}
