package io.microburst.it.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstConfig;
import io.microburst.it.support.Await;
import io.microburst.it.support.ClusterTestSupport;
import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.Emitted;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.LifecycleEvent;
import io.microburst.it.support.PacedSpout;
import io.microburst.it.support.Received;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.Topologies;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.SubmitOptions;
import org.apache.storm.generated.TopologyInitialStatus;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Submission, activation, deactivation and kill, as the spout and bolt callbacks observe them. */
class LifecycleTest extends ClusterTestSupport {

    private StormTopology pacedTopology(int spoutTasks, int boltTasks) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new PacedSpout(scope, 5), 1).setNumTasks(spoutTasks);
        builder.setBolt("sink", new CollectingBolt(scope), 1).setNumTasks(boltTasks).shuffleGrouping("spout");
        return builder.createTopology();
    }

    @Test
    void everyTaskGetsItsOwnInstanceOpenedOrPreparedOnce() throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new PacedSpout(scope, 5), 2).setNumTasks(4);
        builder.setBolt("counted", new InstanceCheckingBolt(scope), 2).setNumTasks(3).shuffleGrouping("spout");
        submit("instances", Topologies.baseConf(), builder.createTopology());

        Await.until("4 spout opens and 3 bolt prepares", () -> callbacks("open").size() == 4 && callbacks("prepare").size() == 3);
        assertEquals(Set.of(0), Set.copyOf(Recorder.all(scope, Integer.class)),
            "every task must get a fresh deserialized instance: a prepare saw an instance already prepared");
        assertEquals(4, callbacks("open").stream().map(LifecycleEvent::taskId).distinct().count(), "spout tasks opened");
        assertEquals(4, callbacks("open").stream().map(LifecycleEvent::instanceId).distinct().count(), "spout instances");
        assertEquals(3, callbacks("prepare").stream().map(LifecycleEvent::taskId).distinct().count(), "bolt tasks prepared");
        Await.until("every spout task activated", () -> callbacks("activate").size() == 4);
        Await.never("a second open or prepare", () -> callbacks("open").size() > 4 || callbacks("prepare").size() > 3,
            Duration.ofMillis(500));
    }

    @Test
    void inactiveSubmissionRunsNoSpoutUntilActivated() throws Exception {
        String name = Topologies.uniqueName("inactive");
        killAfterTest(name);
        SubmitOptions options = new SubmitOptions(TopologyInitialStatus.INACTIVE);
        cluster.submitTopologyWithOpts(name, Topologies.baseConf(), pacedTopology(2, 2), options);

        // Whether tasks are opened and prepared before activation is the runtime's choice (Storm waits); running them is not.
        Await.never("a tuple or an activate while inactive",
            () -> !recorded(Received.class).isEmpty() || !callbacks("activate").isEmpty(), Duration.ofSeconds(2));

        cluster.activate(name);
        Await.until("activate on every spout task", () -> callbacks("activate").size() == 2);
        Await.until("tuples after activation", () -> recorded(Received.class).size() >= 5);
    }

    @Test
    void deactivateStopsSpoutsAndActivateResumesThem() throws Exception {
        String name = submit("deactivate", Topologies.baseConf(), pacedTopology(1, 1));
        Await.until("tuples flowing", () -> recorded(Received.class).size() >= 3);

        cluster.deactivate(name);
        Await.until("deactivate callback", () -> callbacks("deactivate").size() == 1);
        int settled = awaitReceivedCountStable();
        Await.never("a tuple while deactivated", () -> recorded(Received.class).size() > settled, Duration.ofSeconds(1));

        cluster.activate(name);
        Await.until("second activate callback", () -> callbacks("activate").size() == 2);
        Await.until("tuples again", () -> recorded(Received.class).size() > settled + 2);
        assertEquals(List.of("open", "activate", "deactivate", "activate"),
            spoutCallbacks().stream().map(LifecycleEvent::callback).collect(Collectors.toList()));
    }

    @Test
    void killClosesSpoutsAndCleansUpBolts() throws Exception {
        String name = submit("kill", Topologies.baseConf(), pacedTopology(2, 3));
        Await.until("tuples flowing", () -> recorded(Received.class).size() >= 3);

        Topologies.killAndAwaitGone(cluster, name);
        Await.until("close on both spout tasks and cleanup on all bolt tasks",
            () -> callbacks("close").size() == 2 && callbacks("cleanup").size() == 3, Await.DEFAULT_LIMIT,
            () -> Recorder.all(scope, LifecycleEvent.class).toString());
    }

    /**
     * A spout bursts 20 tuples at a bolt that needs 100 ms for each. Without fusion they queue in front of the bolt; with fusion the
     * spout's emit runs the bolt in its own thread, so fewer are emitted before deactivation. Either way, every tuple emitted before
     * the kill deactivated the spouts is executed before the stop.
     */
    @ParameterizedTest(name = "fusion={0}")
    @ValueSource(booleans = {false, true})
    void killWithWaitDeactivatesFirstAndLetsInFlightTuplesFinish(boolean fusion) throws Exception {
        List<List<Object>> burst = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            burst.add(List.of(i));
        }
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new PacedSpout(scope, 5), 1);
        builder.setSpout("burst", FixedTuplesSpout.of(scope, new Fields("i"), burst), 1);
        builder.setBolt("sink", new CollectingBolt(scope), 1).shuffleGrouping("spout");
        builder.setBolt("slow", new SlowBolt(scope, 100), 1).shuffleGrouping("burst");
        Map<String, Object> conf = Topologies.baseConf();
        conf.put(MicroburstConfig.FUSION, fusion);
        String name = submit("killwait", conf, builder.createTopology());
        Await.until("the first tuple at the slow bolt", () -> receivedBy("slow") >= 1);

        long killedAtNanos = System.nanoTime();
        Topologies.kill(cluster, name, 5);
        Await.until("deactivate on kill", () -> callbacks("deactivate").size() == 1);
        Await.until("cleanup of both bolts after the wait", () -> callbacks("cleanup").size() == 2, Duration.ofSeconds(60));
        long stoppedAtNanos = System.nanoTime();
        List<String> order = spoutCallbacks().stream().map(LifecycleEvent::callback).collect(Collectors.toList());
        assertTrue(order.contains("close") ? order.indexOf("deactivate") < order.indexOf("close") : order.contains("deactivate"),
            "deactivate must come before close: " + order);
        long emitted = recorded(Emitted.class).stream().filter(e -> e.component().equals("burst")).count();
        assertEquals(emitted, receivedBy("slow"), "tuples emitted before the stop that were executed before the stop");
        long stoppedAfterMillis = (stoppedAtNanos - killedAtNanos) / 1_000_000;
        assertTrue(stoppedAfterMillis >= 4000,
            "Storm stops a topology wait_secs (5) after deactivating it; stopped after " + stoppedAfterMillis + " ms");
    }

    @Test
    void killWithoutOptionsWaitsTheMessageTimeout() throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new PacedSpout(scope, 5), 1);
        builder.setBolt("sink", new CollectingBolt(scope), 1).shuffleGrouping("spout");
        Map<String, Object> conf = Topologies.baseConf();
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 3);
        String name = submit("killdefault", conf, builder.createTopology());
        Await.until("tuples flowing", () -> recorded(Received.class).size() >= 3);

        long killedAtNanos = System.nanoTime();
        cluster.killTopology(name);
        Await.until("deactivate on kill", () -> callbacks("deactivate").size() == 1);
        Await.until("cleanup", () -> callbacks("cleanup").size() == 1, Duration.ofSeconds(60));
        long stoppedAfterMillis = (System.nanoTime() - killedAtNanos) / 1_000_000;
        assertTrue(stoppedAfterMillis >= 2000,
            "killTopology waits the topology's message timeout (3 s) before stopping; stopped after " + stoppedAfterMillis + " ms");
    }

    /** As in Storm, a killed topology may be killed again: the new, shorter wait replaces the pending one. */
    @Test
    void aSecondKillWithAShorterWaitReplacesAPendingKill() throws Exception {
        String name = submit("killtwice", Topologies.baseConf(), pacedTopology(1, 1));
        Await.until("tuples flowing", () -> recorded(Received.class).size() >= 3);

        Topologies.kill(cluster, name, 300);
        Await.until("deactivate on the first kill", () -> callbacks("deactivate").size() == 1);
        Topologies.kill(cluster, name, 0);
        Await.until("the topology to go after the second kill (not after the first kill's 300 s)",
            () -> !Topologies.isListed(cluster, name));
        Await.until("cleanup", () -> callbacks("cleanup").size() == 1);
    }

    /** Waits until the received count stops changing between two polls 300 ms apart (in-flight tuples drained). */
    private int awaitReceivedCountStable() {
        int[] last = {-1};
        Await.until("in-flight tuples to drain", () -> {
            int now = recorded(Received.class).size();
            boolean stable = now == last[0];
            last[0] = now;
            if (!stable) {
                Await.never("nothing", () -> false, Duration.ofMillis(300));
            }
            return stable;
        });
        return last[0];
    }

    private long receivedBy(String component) {
        return recorded(Received.class).stream().filter(r -> r.component().equals(component)).count();
    }

    private List<LifecycleEvent> callbacks(String callback) {
        return recorded(LifecycleEvent.class).stream().filter(e -> e.callback().equals(callback)).collect(Collectors.toList());
    }

    private List<LifecycleEvent> spoutCallbacks() {
        return recorded(LifecycleEvent.class).stream().filter(e -> e.component().equals("spout")).collect(Collectors.toList());
    }

    /** Records, at prepare, how many times this very instance had been prepared before (0 when each task has its own). */
    static final class InstanceCheckingBolt extends CollectingBolt {
        private int preparedBefore;

        InstanceCheckingBolt(String scope) {
            super(scope);
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            Recorder.record(scope(), preparedBefore++);
            super.prepare(topoConf, context, collector);
        }
    }

    /** Takes a fixed time per tuple, so tuples queue up in front of it. */
    static final class SlowBolt extends CollectingBolt {
        private final long millisPerTuple;

        SlowBolt(String scope, long millisPerTuple) {
            super(scope);
            this.millisPerTuple = millisPerTuple;
        }

        @Override
        public void execute(Tuple input) {
            try {
                Thread.sleep(millisPerTuple);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            super.execute(input);
        }
    }
}
