package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.Config;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The failure policy: by default, as in Storm, a failing task is restarted forever and every message id is acked in
 * the end (failed tuples are replayed by their spout); a failure limit is an explicit choice, and a topology halted by
 * it stays listed, with its reason, until killed. Whatever fails to open or prepare is never closed or cleaned up.
 */
class FailurePolicyTest {
    static final Set<Integer> THROWN = ConcurrentHashMap.newKeySet();
    static final AtomicInteger PREPARES = new AtomicInteger();
    static final AtomicInteger CLEANUPS = new AtomicInteger();
    static final AtomicInteger OPENS = new AtomicInteger();
    static final AtomicInteger CLOSES = new AtomicInteger();

    /** Throws the first time it sees an id ending in 07 (20 failures over 2,000 ids); acks everything else. */
    public static class SometimesThrows extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            int id = input.getInteger(0);
            if (id % 100 == 7 && THROWN.add(id)) {
                throw new IllegalStateException("fails on " + id + " (expected by the test)");
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    public static class AlwaysThrows extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            throw new IllegalStateException("always fails (expected by the test)");
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Its first prepare throws; counts prepares and cleanups. */
    public static class FirstPrepareThrows extends BaseBasicBolt {
        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context) {
            if (PREPARES.incrementAndGet() == 1) {
                throw new IllegalStateException("first prepare fails (expected by the test)");
            }
        }

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
        }

        @Override
        public void cleanup() {
            CLEANUPS.incrementAndGet();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Its first open throws; counts opens and closes. Emits nothing. */
    public static class FirstOpenThrows extends BaseRichSpout {
        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            if (OPENS.incrementAndGet() == 1) {
                throw new IllegalStateException("first open fails (expected by the test)");
            }
        }

        @Override
        public void nextTuple() {
        }

        @Override
        public void close() {
            CLOSES.incrementAndGet();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new org.apache.storm.tuple.Fields("n"));
        }
    }

    @Test
    void byDefaultAFailingTaskIsRestartedForeverAndNothingIsLost() throws Exception {
        String run = "policy-default";
        int count = 2_000;
        THROWN.clear();
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ReplayingSpout(run, count));
        b.setBolt("bolt", new SometimesThrows()).shuffleGrouping("spout");
        Config conf = new Config();
        conf.put(MicroburstConfig.TASK_RESTART_BACKOFF_MS, 10);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology(run, conf, b.createTopology());
            ReplayingSpout.await("every id acked", 60, () -> ReplayingSpout.acked(run).size() == count);
            assertEquals(20, THROWN.size(), "failures of the bolt");
            assertEquals("ACTIVE", cluster.getTopologySummaryByName(run).get_status());
        }
    }

    @Test
    void anExplicitFailureLimitHaltsAndTheTopologyStaysListedWithItsReasonUntilKilled() throws Exception {
        String run = "policy-limit";
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ReplayingSpout(run, 100));
        b.setBolt("bolt", new AlwaysThrows()).shuffleGrouping("spout");
        Config conf = new Config();
        conf.put(MicroburstConfig.TASK_RESTART_BACKOFF_MS, 10);
        conf.put(MicroburstConfig.TASK_FAILURE_LIMIT, 2);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology(run, conf, b.createTopology());
            ReplayingSpout.await("the topology to halt", 30, () -> status(cluster, run).equals("HALTED"));
            ReplayingSpout.await("its executors to stop", 30, () -> cluster.liveExecutors() == 0);
            TopologyInfo info = cluster.getTopologyInfoByName(run);
            assertEquals("HALTED", info.get_status());
            List<ErrorInfo> system = info.get_errors().get("__system");
            assertTrue(system != null && system.stream().anyMatch(e -> e.get_error().contains("halted")
                && e.get_error().contains("component 'bolt'") && e.get_error().contains("limit 2")),
                "the reason is among the errors: " + info.get_errors());
            assertTrue(info.get_errors().get("bolt").stream().anyMatch(e -> e.get_error().contains("always fails")));
            cluster.killTopology(run);
            assertThrows(NotAliveException.class, () -> cluster.getTopologyInfoByName(run));
        }
    }

    @Test
    void whatFailedToOpenOrPrepareIsNeverClosedOrCleanedUp() throws Exception {
        PREPARES.set(0);
        CLEANUPS.set(0);
        OPENS.set(0);
        CLOSES.set(0);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new FirstOpenThrows());
        b.setBolt("bolt", new FirstPrepareThrows()).shuffleGrouping("spout");
        Config conf = new Config();
        conf.put(MicroburstConfig.TASK_RESTART_BACKOFF_MS, 10);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("prepare-fails", conf, b.createTopology());
            ReplayingSpout.await("second prepare and open", 30, () -> PREPARES.get() == 2 && OPENS.get() == 2);
        }
        assertEquals(1, CLEANUPS.get(), "cleanups: only the prepared instance");
        assertEquals(1, CLOSES.get(), "closes: only the opened instance");
    }

    private static String status(MicroburstCluster cluster, String name) {
        try {
            for (TopologySummary s : cluster.getTopologySummaries()) {
                if (s.get_name().equals(name)) {
                    return s.get_status();
                }
            }
            return "not listed";
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
