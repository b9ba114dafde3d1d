package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.storm.Config;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.policy.IWaitStrategy;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A spout with nothing to emit is waited on as its topology.spout.wait.strategy says, as in Storm. */
class SpoutWaitStrategyTest {
    static final AtomicInteger POLLS = new AtomicInteger();
    static final AtomicInteger WAITS = new AtomicInteger();

    /** Never emits; counts its polls. */
    public static class EmptySpout extends BaseRichSpout {
        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        }

        @Override
        public void nextTuple() {
            POLLS.incrementAndGet();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("x"));
        }
    }

    /** A user's strategy that counts its calls and parks briefly, as a strategy would. */
    public static class CountingWait implements IWaitStrategy {
        @Override
        public void prepare(Map<String, Object> conf, WaitSituation waitSituation) {
        }

        @Override
        public int idle(int idleCounter) {
            WAITS.incrementAndGet();
            java.util.concurrent.locks.LockSupport.parkNanos(100_000);
            return idleCounter + 1;
        }
    }

    /** A user's strategy that throws on its third call. */
    public static class FailingWait extends CountingWait {
        @Override
        public int idle(int idleCounter) {
            if (WAITS.incrementAndGet() == 3) {
                throw new IllegalStateException("wait strategy failed on purpose");
            }
            return idleCounter + 1;
        }
    }

    @BeforeEach
    void reset() {
        POLLS.set(0);
        WAITS.set(0);
    }

    private static org.apache.storm.generated.StormTopology emptySpout() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("idle", new EmptySpout());
        return b.createTopology();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (!condition.getAsBoolean()) {
            assertTrue(System.currentTimeMillis() < deadline, "timed out waiting for " + what);
            Thread.sleep(5);
        }
    }

    @Test
    void byDefaultASpoutWithNothingToEmitIsPolledAgainAMillisecondLater() throws Exception {
        PacedSpout.EMITS.set(0);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("paced", new PacedSpout());
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("paced-default", new Config(), b.createTopology());
            await("the first emits", () -> PacedSpout.EMITS.get() >= 2);
            int polls = PacedSpout.POLLS.get();
            int emits = PacedSpout.EMITS.get();
            Thread.sleep(400);
            polls = PacedSpout.POLLS.get() - polls;
            emits = PacedSpout.EMITS.get() - emits;
            // Storm's default (level 1 and 2 counts 0, level 3 one millisecond): after each emit, one poll per
            // millisecond parked, about 10 per tuple here. Spinning first, as this executor once did after every emit,
            // is 64 polls per tuple before the first park.
            assertTrue(emits >= 10, "emits in 400 ms: " + emits);
            assertTrue(polls <= 30 * emits, polls + " polls for " + emits + " emits");
        }
    }

    @Test
    void aUsersStrategyIsCalledWhileTheSpoutHasNothing() throws Exception {
        Config conf = new Config();
        conf.put(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY, CountingWait.class.getName());
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("idle-custom", conf, emptySpout());
            await("100 calls of the strategy", () -> WAITS.get() >= 100);
            int waits = WAITS.get();
            int polls = POLLS.get();
            assertTrue(Math.abs(polls - waits) <= 2, "one wait per empty poll: " + polls + " polls, " + waits + " waits");
        }
    }

    @Test
    void aStrategyThatThrowsIsReportedAndTheSpoutIsStillPolled() throws Exception {
        Config conf = new Config();
        conf.put(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY, FailingWait.class.getName());
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("idle-failing", conf, emptySpout());
            await("the strategy's failure among the spout's errors", () -> {
                try {
                    List<ErrorInfo> errors = cluster.getTopologyInfoByName("idle-failing").get_errors().get("idle");
                    return errors != null && !errors.isEmpty();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            List<ErrorInfo> errors = cluster.getTopologyInfoByName("idle-failing").get_errors().get("idle");
            assertTrue(errors.get(0).get_error().contains("wait strategy failed on purpose"), errors.get(0).get_error());
            int polls = POLLS.get();
            await("polls after the failure", () -> POLLS.get() > polls + 10);
            assertEquals(3, WAITS.get(), "Storm's default took over");
        }
    }

    @Test
    void aStrategyThatIsNoWaitStrategyIsRefusedAtSubmission() throws Exception {
        Config conf = new Config();
        conf.put(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY, "com.example.NoSuchWaitStrategy");
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            InvalidTopologyException e = assertThrows(InvalidTopologyException.class,
                () -> cluster.submitTopology("idle-bad", conf, emptySpout()));
            assertTrue(e.get_msg().contains("'idle'") && e.get_msg().contains("com.example.NoSuchWaitStrategy"),
                e.get_msg());
            assertTrue(cluster.getClusterInfo().get_topologies().isEmpty(), "nothing left running");
        }
    }
}
