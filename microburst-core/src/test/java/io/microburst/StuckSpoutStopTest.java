package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.Config;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichSpout;
import org.junit.jupiter.api.Test;

/**
 * A spout stuck inside one of its calls until it is closed (as a multi-lang spout is when its script never answers:
 * storm.js leaves deactivate unanswered) does not hold a kill up: as Storm's executor shutdown does, the stop closes it
 * from outside once its thread has not come back, and what the stuck call then throws is not a failure. The other
 * components still drain what is in flight. Counted, not timed: before this, a kill waited out the whole stop timeout
 * and left the spout unclosed.
 */
class StuckSpoutStopTest {
    static final Map<String, State> STATES = new ConcurrentHashMap<>();

    static final class State {
        final AtomicInteger opens = new AtomicInteger();
        final AtomicInteger closes = new AtomicInteger();
        final CountDownLatch stuck = new CountDownLatch(1);
        final CountDownLatch closed = new CountDownLatch(1);
        volatile Thread stuckThread;
        volatile Thread closingThread;
    }

    /** Stuck, deaf to interrupts, in nextTuple or in deactivate (as {@code where} says) until closed. */
    public static class StuckSpout extends BaseRichSpout {
        private final String run;
        private final String where;

        public StuckSpout(String run, String where) {
            this.run = run;
            this.where = where;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            STATES.get(run).opens.incrementAndGet();
        }

        @Override
        public void nextTuple() {
            if (where.equals("nextTuple")) {
                stick();
            }
        }

        @Override
        public void deactivate() {
            if (where.equals("deactivate")) {
                stick();
            }
        }

        private void stick() {
            State s = STATES.get(run);
            s.stuckThread = Thread.currentThread();
            s.stuck.countDown();
            boolean interrupted = false;
            while (s.closed.getCount() > 0) {
                try {
                    s.closed.await();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("closed while waiting, as a multi-lang spout's pipe breaks");
        }

        @Override
        public void close() {
            State s = STATES.get(run);
            s.closingThread = Thread.currentThread();
            s.closes.incrementAndGet();
            s.closed.countDown();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @Test
    void aSpoutStuckInNextTupleIsClosedByTheKill() throws Exception {
        killWhileStuck("nextTuple");
    }

    @Test
    void aSpoutStuckInDeactivateIsClosedByTheKill() throws Exception {
        killWhileStuck("deactivate");
    }

    private static void killWhileStuck(String where) throws Exception {
        String run = "stuck-" + where;
        State state = new State();
        STATES.put(run, state);
        KillDrainTest.SEEN.remove(run);
        ReplayingSpout.ACKED.remove(run);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("stuck", new StuckSpout(run, where));
        b.setSpout("spout", new ReplayingSpout(run, KillDrainTest.COUNT));
        b.setBolt("ack", new KillDrainTest.Unanchoring()).shuffleGrouping("spout");
        b.setBolt("slow", new KillDrainTest.SlowRecorder(run)).shuffleGrouping("ack");
        Config conf = new Config();
        conf.put(MicroburstConfig.FUSION, false);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology(run, conf, b.createTopology());
            ReplayingSpout.await("every spout tuple acked", 60,
                () -> ReplayingSpout.acked(run).size() == KillDrainTest.COUNT);
            if (where.equals("nextTuple")) {
                assertTrue(state.stuck.await(60, TimeUnit.SECONDS), "the spout got stuck in nextTuple");
            }
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts(run, now); // returns once every executor has stopped
            assertEquals(1, state.closes.get(), "the stuck spout was closed, once");
            assertNotEquals(state.stuckThread, state.closingThread, "closed from outside its stuck thread");
            state.stuckThread.join(TimeUnit.SECONDS.toMillis(60));
            assertTrue(!state.stuckThread.isAlive(), "the stuck executor's thread ended");
            assertEquals(1, state.opens.get(), "what the stuck call threw once closed is no failure: no restart");
            assertEquals(KillDrainTest.COUNT, KillDrainTest.SEEN.getOrDefault(run, Set.of()).size(),
                "tuples the slow bolt executed before the kill");
            assertTrue(cluster.getClusterInfo().get_topologies().isEmpty(), "the topology is gone");
        } finally {
            STATES.remove(run);
        }
    }
}
