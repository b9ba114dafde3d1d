package io.microburst.it.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.it.support.Await;
import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.LifecycleEvent;
import io.microburst.it.support.PacedSpout;
import io.microburst.it.support.Received;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.Runtimes;
import io.microburst.it.support.Threads;
import io.microburst.it.support.Topologies;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * After close() no thread the cluster started is alive. Microburst-specific: Storm's LocalCluster is known to leave threads behind
 * (STORM-2336, STORM-3554). Each test owns its cluster, since closing it is the point.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ThreadHygieneTest {
    private String scope;

    @BeforeEach
    void setUp() {
        Assumptions.assumeTrue(Runtimes.isMicroburst(Runtimes.selected()), "Microburst-specific: Storm leaves threads behind");
        scope = Recorder.openScope("threads");
    }

    @AfterEach
    void tearDown() {
        Recorder.closeScope(scope);
        scope = null;
    }

    @Test
    void closeLeavesNoThreadBehindWithTopologiesRunning() throws Exception {
        Set<Thread> before = Threads.snapshot();
        try (ILocalCluster cluster = Runtimes.start(Runtimes.MICROBURST)) {
            cluster.submitTopology(Topologies.uniqueName("a"), Topologies.baseConf(), topology(new CollectingBolt(scope)));
            cluster.submitTopology(Topologies.uniqueName("b"), Topologies.baseConf(), topology(new CollectingBolt(scope)));
            Await.until("both topologies running", () -> Recorder.count(scope, Received.class) >= 10);
        }
        Threads.awaitAllEndedSince(before, Duration.ofSeconds(10));
    }

    @Test
    void closeRunsCloseAndCleanupOfRunningTopologies() throws Exception {
        try (ILocalCluster cluster = Runtimes.start(Runtimes.MICROBURST)) {
            cluster.submitTopology(Topologies.uniqueName("closed"), Topologies.baseConf(), topology(new CollectingBolt(scope)));
            Await.until("running", () -> Recorder.count(scope, Received.class) >= 5);
        }
        List<LifecycleEvent> events = Recorder.all(scope, LifecycleEvent.class);
        assertEquals(2, events.stream().filter(e -> e.callback().equals("close")).count(),
            "spout close on both spout tasks: " + events);
        assertEquals(2, events.stream().filter(e -> e.callback().equals("cleanup")).count(),
            "bolt cleanup on both bolt tasks: " + events);
    }

    @Test
    void closeLeavesNoThreadBehindAfterKills() throws Exception {
        Set<Thread> before = Threads.snapshot();
        try (ILocalCluster cluster = Runtimes.start(Runtimes.MICROBURST)) {
            String name = Topologies.uniqueName("killed");
            cluster.submitTopology(name, Topologies.baseConf(), topology(new CollectingBolt(scope)));
            Await.until("running", () -> Recorder.count(scope, Received.class) >= 5);
            Topologies.killAndAwaitGone(cluster, name);
        }
        Threads.awaitAllEndedSince(before, Duration.ofSeconds(10));
    }

    @Test
    void closeStopsATaskBlockedInExecute() throws Exception {
        Set<Thread> before = Threads.snapshot();
        try (ILocalCluster cluster = Runtimes.start(Runtimes.MICROBURST)) {
            cluster.submitTopology(Topologies.uniqueName("blocked"), Topologies.baseConf(), topology(new BlockingBolt(scope)));
            Await.until("the bolt to block", () -> Recorder.count(scope, Received.class) >= 1);
        }
        Threads.awaitAllEndedSince(before, Duration.ofSeconds(20));
    }

    @Test
    void closeWithoutTopologiesAndTwiceIsHarmless() throws Exception {
        Set<Thread> before = Threads.snapshot();
        ILocalCluster cluster = Runtimes.start(Runtimes.MICROBURST);
        cluster.close();
        cluster.close();
        Threads.awaitAllEndedSince(before, Duration.ofSeconds(10));
    }

    private TopologyBuilder builder() {
        return new TopologyBuilder();
    }

    private StormTopology topology(CollectingBolt sink) {
        TopologyBuilder builder = builder();
        builder.setSpout("spout", new PacedSpout(scope, 2), 2);
        builder.setBolt("sink", sink, 2).shuffleGrouping("spout");
        return builder.createTopology();
    }

    /** Blocks in execute (interruptibly) on its first tuple, as a bolt waiting on a slow external call would. */
    static final class BlockingBolt extends CollectingBolt {
        BlockingBolt(String scope) {
            super(scope);
        }

        @Override
        public void execute(Tuple input) {
            super.execute(input);
            try {
                Thread.sleep(Duration.ofMinutes(10).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
