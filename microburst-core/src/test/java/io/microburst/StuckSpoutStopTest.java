package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
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
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A spout stuck inside one of its calls does not hold a kill up, and its close() never runs while another of its calls
 * does, unless one never comes back. A stuck call that lets go when interrupted (a plain Java spout waiting on a latch)
 * comes back, and the spout is closed on its own thread, after it. A call deaf to the interrupt until the spout is
 * closed (as a multi-lang spout is when its script never answers: storm.js leaves deactivate unanswered) is closed
 * from outside, as Storm's executor shutdown does, with a warning naming it; once closed, nothing more is called on it,
 * and what the stuck call throws then is not a failure. The other components still drain what is in flight. Counted,
 * not timed: every wait is for a latch or a count.
 */
class StuckSpoutStopTest {
    static final Map<String, State> STATES = new ConcurrentHashMap<>();

    static final class State {
        final AtomicInteger opens = new AtomicInteger();
        final AtomicInteger closes = new AtomicInteger();
        final AtomicInteger calls = new AtomicInteger();
        /** Calls of the spout in progress; close() records how many it found. */
        final AtomicInteger inCall = new AtomicInteger();
        final AtomicInteger callsAfterClose = new AtomicInteger();
        final CountDownLatch activated = new CountDownLatch(1);
        final CountDownLatch stuck = new CountDownLatch(1);
        final CountDownLatch closed = new CountDownLatch(1);
        /** Never counted down while the topology runs: only an interrupt (or a close) ends a wait on it. */
        final CountDownLatch release = new CountDownLatch(1);
        volatile int inCallAtClose = -1;
        volatile Thread stuckThread;
        volatile Thread closingThread;
        /** What the stop warned, and the failures reported, during the kill. */
        volatile List<String> warnings = List.of();
        volatile List<String> failures = List.of();
    }

    /** How a spout gets stuck, and what lets it go. */
    enum Stuck {
        /** Deaf to interrupts in nextTuple until closed, then throws. */
        NEXT_TUPLE,
        /** Deaf to interrupts in deactivate until closed, then throws. */
        DEACTIVATE,
        /** Emits on each nextTuple, stuck in the fifth, deaf to interrupts until closed; then emits and returns. */
        NEXT_TUPLE_EMITTING,
        /** Waits in nextTuple on a latch nobody counts down; an interrupt ends the wait, and the call throws it. */
        NEXT_TUPLE_INTERRUPTIBLE
    }

    public static class StuckSpout extends BaseRichSpout {
        private final String run;
        private final Stuck how;
        private transient SpoutOutputCollector collector;

        public StuckSpout(String run, Stuck how) {
            this.run = run;
            this.how = how;
        }

        private State enter() {
            State s = STATES.get(run);
            s.calls.incrementAndGet();
            s.inCall.incrementAndGet();
            if (s.closes.get() > 0) {
                s.callsAfterClose.incrementAndGet();
            }
            return s;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            State s = enter();
            this.collector = collector;
            s.opens.incrementAndGet();
            s.inCall.decrementAndGet();
        }

        @Override
        public void nextTuple() {
            State s = enter();
            try {
                if (how == Stuck.NEXT_TUPLE) {
                    stickDeaf(s);
                } else if (how == Stuck.NEXT_TUPLE_EMITTING) {
                    collector.emit(new Values(s.calls.get()));
                    if (s.stuck.getCount() > 0 && s.calls.get() >= 5) {
                        stickDeaf(s);
                        collector.emit(new Values(-1));
                    }
                } else if (how == Stuck.NEXT_TUPLE_INTERRUPTIBLE) {
                    s.stuckThread = Thread.currentThread();
                    s.stuck.countDown();
                    try {
                        s.release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while waiting", e);
                    }
                }
            } finally {
                s.inCall.decrementAndGet();
            }
        }

        @Override
        public void deactivate() {
            State s = enter();
            try {
                if (how == Stuck.DEACTIVATE) {
                    stickDeaf(s);
                }
            } finally {
                s.inCall.decrementAndGet();
            }
        }

        @Override
        public void activate() {
            State s = enter();
            s.activated.countDown();
            s.inCall.decrementAndGet();
        }

        @Override
        public void ack(Object msgId) {
            enter().inCall.decrementAndGet();
        }

        @Override
        public void fail(Object msgId) {
            enter().inCall.decrementAndGet();
        }

        /** Waits, deaf to interrupts, until closed; throws afterwards unless it is the emitting kind. */
        private void stickDeaf(State s) {
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
            if (how != Stuck.NEXT_TUPLE_EMITTING) {
                throw new IllegalStateException("closed while waiting, as a multi-lang spout's pipe breaks");
            }
        }

        @Override
        public void close() {
            State s = STATES.get(run);
            s.inCallAtClose = s.inCall.get();
            s.closingThread = Thread.currentThread();
            s.closes.incrementAndGet();
            s.closed.countDown();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Stuck, deaf to interrupts: in nextTuple, in deactivate, or in nextTuple after emitting (it emits once more). */
    @ParameterizedTest
    @EnumSource(value = Stuck.class, names = {"NEXT_TUPLE", "DEACTIVATE", "NEXT_TUPLE_EMITTING"})
    void aSpoutStuckInACallIsClosedFromOutsideAndCalledNoMore(Stuck how) throws Exception {
        State s = killWhileStuck(how);
        assertNotEquals(s.stuckThread, s.closingThread, "closed from outside its stuck thread");
        assertEquals(1, s.inCallAtClose, "calls in progress when it was closed: the stuck one");
        assertEquals(0, s.callsAfterClose.get(), "calls of the spout after it was closed");
        assertEquals(1, s.warnings.size(), "warnings of the stop: " + s.warnings);
        assertTrue(s.warnings.get(0).contains("stuck:"), "the warning names the spout: " + s.warnings);
        assertEquals(List.of(), s.failures, "failures reported: what the stuck call threw once closed is none");
    }

    @Test
    void aSpoutThatLetsGoWhenInterruptedIsClosedOnItsOwnThreadAfterItsCall() throws Exception {
        State s = killWhileStuck(Stuck.NEXT_TUPLE_INTERRUPTIBLE);
        assertEquals(s.stuckThread, s.closingThread, "closed on the spout's own thread");
        assertEquals(0, s.inCallAtClose, "calls of the spout in progress when it was closed");
        assertEquals(List.of(), s.warnings, "warnings of the stop");
        assertEquals(List.of(), s.failures, "failures reported: the call threw the stop's interrupt");
    }

    private static State killWhileStuck(Stuck how) throws Exception {
        String run = "stuck-" + how;
        State state = new State();
        STATES.put(run, state);
        KillDrainTest.SEEN.remove(run);
        ReplayingSpout.ACKED.remove(run);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("stuck", new StuckSpout(run, how));
        b.setSpout("spout", new ReplayingSpout(run, KillDrainTest.COUNT));
        b.setBolt("ack", new KillDrainTest.Unanchoring()).shuffleGrouping("spout");
        b.setBolt("slow", new KillDrainTest.SlowRecorder(run)).shuffleGrouping("ack");
        Config conf = new Config();
        conf.put(MicroburstConfig.FUSION, false);
        try (MicroburstCluster cluster = new MicroburstCluster();
             LogCapture warnings = new LogCapture("io.microburst.runtime.topology.StopSequence");
             LogCapture failures = new LogCapture("io.microburst.runtime.topology.Supervisor")) {
            cluster.submitTopology(run, conf, b.createTopology());
            ReplayingSpout.await("every spout tuple acked", 60,
                () -> ReplayingSpout.acked(run).size() == KillDrainTest.COUNT);
            if (how != Stuck.DEACTIVATE) {
                assertTrue(state.stuck.await(60, TimeUnit.SECONDS), "the spout got stuck in nextTuple");
            } else {
                assertTrue(state.activated.await(60, TimeUnit.SECONDS), "the spout was activated");
            }
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts(run, now); // returns once every executor has stopped
            assertEquals(1, state.closes.get(), "the stuck spout was closed, once");
            state.stuckThread.join(TimeUnit.SECONDS.toMillis(60));
            assertTrue(!state.stuckThread.isAlive(), "the stuck executor's thread ended");
            assertEquals(1, state.opens.get(), "opened once: no restart");
            assertEquals(KillDrainTest.COUNT, KillDrainTest.SEEN.getOrDefault(run, Set.of()).size(),
                "tuples the slow bolt executed before the kill");
            assertTrue(cluster.getClusterInfo().get_topologies().isEmpty(), "the topology is gone");
            state.warnings = List.copyOf(warnings.messages);
            state.failures = List.copyOf(failures.messages);
            return state;
        } finally {
            state.release.countDown();
            STATES.remove(run);
        }
    }
}
