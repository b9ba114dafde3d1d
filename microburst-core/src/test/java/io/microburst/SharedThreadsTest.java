package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.runtime.topology.ThreadView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.storm.Config;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

/**
 * A topology with more executors than its thread budget ({@link MicroburstConfig#EXECUTOR_THREADS_MAX}) runs them on
 * that many shared threads, acks every id, reports Storm's executors one by one, moves a bolt that blocks in execute
 * to a thread of its own so that it cannot hold its peers back, and leaves no thread behind when killed or closed.
 */
class SharedThreadsTest {
    /** Passes each tuple on, anchored, and acks it. */
    public static class PassOn extends BaseRichBolt {
        private transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            collector.emit(input, new Values(input.getValue(0)));
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id"));
        }
    }

    /** Blocks in every execute, as a bolt waiting on a slow service does, then acks. */
    public static class Blocking extends BaseRichBolt {
        private transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Each task throws on its first tuple (its restarted instance does not), and passes tuples on as {@link PassOn}. */
    public static class ThrowsOnce extends PassOn {
        static final Set<Integer> THROWN = ConcurrentHashMap.newKeySet();
        private transient int taskId;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            super.prepare(conf, context, collector);
            taskId = context.getThisTaskId();
        }

        @Override
        public void execute(Tuple input) {
            if (THROWN.add(taskId)) {
                throw new IllegalStateException("first tuple of this instance (expected by the test)");
            }
            super.execute(input);
        }
    }

    private static Map<String, Object> conf(int threads) {
        Map<String, Object> conf = new HashMap<>();
        conf.put(MicroburstConfig.EXECUTOR_THREADS_MAX, threads);
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 300);
        return conf;
    }

    /** Live threads of a topology's executors, by name. */
    private static List<String> threadsOf(String topology) {
        List<String> names = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && t.getName().startsWith("microburst-" + topology + "-")) {
                names.add(t.getName());
            }
        }
        return names;
    }

    @Test
    void manyExecutorsOfMixedParallelismShareTheBudgetedThreadsAndAckEveryId() throws Exception {
        String run = "shared-threads-many";
        int ids = 20_000;
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ReplayingSpout(run, ids), 1);
        b.setBolt("wide", new PassOn(), 300).shuffleGrouping("spout");
        b.setBolt("narrow", new PassOn(), 7).fieldsGrouping("wide", new Fields("id"));
        String previous = "narrow";
        for (int i = 0; i < 10; i++) {
            b.setBolt("small" + i, new PassOn(), 3 + i % 3).setNumTasks(6).shuffleGrouping(previous);
            previous = "small" + i;
        }
        int stormExecutors = 1 + 300 + 7 + 4 * 3 + 3 * 4 + 3 * 5;
        int budget = 4;
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("sharedmany", conf(budget), b.createTopology());
            ReplayingSpout.await("every id acked", 120, () -> ReplayingSpout.acked(run).size() == ids);
            List<ThreadView> threads = cluster.getThreadViews("sharedmany");
            long carriers = threads.stream().filter(t -> t.name().contains("-carrier")).count();
            List<String> live = threadsOf("sharedmany");
            assertEquals(budget, carriers, "one shared thread per unit of budget: " + live);
            // a task that proves slow may leave a shared thread, at most the budget of them
            assertTrue(live.size() <= 2 * budget, "threads " + live);
            List<ExecutorSummary> executors = cluster.getTopologyInfoByName("sharedmany").get_executors();
            assertEquals(stormExecutors, executors.size(), "Storm's executors, each reported on its own");
            Map<String, List<int[]>> ranges = new TreeMap<>();
            for (ExecutorSummary e : executors) {
                ranges.computeIfAbsent(e.get_component_id(), k -> new ArrayList<>())
                    .add(new int[] {e.get_executor_info().get_task_start(), e.get_executor_info().get_task_end()});
            }
            assertEquals(300, ranges.get("wide").size());
            List<Integer> sizes = new ArrayList<>();
            for (int[] r : ranges.get("small1")) {
                sizes.add(r[1] - r[0] + 1);
            }
            sizes.sort(null);
            assertEquals(List.of(1, 1, 2, 2), sizes, "6 tasks in 4 executors, as Storm splits them");
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts("sharedmany", now);
            ReplayingSpout.await("no thread left after the kill", 60, () -> threadsOf("sharedmany").isEmpty());
        }
    }

    @Test
    void aBoltThatBlocksMovesOffItsSharedThreadAndItsPeersRunOn() throws Exception {
        String fast = "shared-threads-fast";
        String slow = "shared-threads-slow";
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("fast", new ReplayingSpout(fast, 5_000), 1);
        b.setBolt("peer", new PassOn(), 6).shuffleGrouping("fast");
        b.setSpout("slowsource", new ReplayingSpout(slow, 40), 1);
        // two executors fed by one: not fused into its spout, so only sharing puts it on its peers' thread
        b.setBolt("blocking", new Blocking(), 2).shuffleGrouping("slowsource");
        MicroburstCluster cluster = new MicroburstCluster();
        try {
            cluster.submitTopology("sharedblock", conf(2), b.createTopology());
            ReplayingSpout.await("the blocking bolt on a thread of its own", 120,
                () -> threadsOf("sharedblock").stream().anyMatch(n -> n.startsWith("microburst-sharedblock-blocking[")));
            ReplayingSpout.await("every id of its peers acked", 120, () -> ReplayingSpout.acked(fast).size() == 5_000);
            ReplayingSpout.await("every id of the blocking bolt acked", 120,
                () -> ReplayingSpout.acked(slow).size() == 40);
            List<String> live = threadsOf("sharedblock");
            assertEquals(2, live.stream().filter(n -> n.contains("-carrier")).count(), "two shared threads: " + live);
        } finally {
            cluster.close();
        }
        ReplayingSpout.await("no thread left after close", 60, () -> threadsOf("sharedblock").isEmpty());
    }

    @Test
    void failingTasksOnSharedThreadsAreRestartedAndARebalanceKeepsTheBudget() throws Exception {
        String run = "shared-threads-restart";
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ReplayingSpout(run, 3_000), 1);
        b.setBolt("flaky", new ThrowsOnce(), 40).shuffleGrouping("spout");
        b.setBolt("sink", new PassOn(), 9).shuffleGrouping("flaky");
        Map<String, Object> conf = conf(3);
        conf.put(MicroburstConfig.TASK_RESTART_BACKOFF_MS, 10);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("sharedrestart", conf, b.createTopology());
            ReplayingSpout.await("every id acked, the failed ones replayed", 120,
                () -> ReplayingSpout.acked(run).size() == 3_000);
            assertTrue(ReplayingSpout.fails(run).get() > 0, "tuples failed by the throwing instances were replayed");
            RebalanceOptions options = new RebalanceOptions();
            options.set_wait_secs(0);
            options.put_to_num_executors("flaky", 20);
            cluster.rebalance("sharedrestart", options);
            ReplayingSpout.await("the rebalanced topology running", 120, () -> {
                try {
                    return "ACTIVE".equals(cluster.getTopologySummaryByName("sharedrestart").get_status())
                        && cluster.getTopologyInfoByName("sharedrestart").get_executors().stream()
                            .filter(e -> e.get_component_id().equals("flaky")).count() == 20;
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            List<String> live = threadsOf("sharedrestart");
            assertEquals(3, cluster.getThreadViews("sharedrestart").stream()
                .filter(t -> t.name().contains("-carrier")).count(), "three shared threads after the rebalance: " + live);
        }
        ReplayingSpout.await("no thread left after close", 60, () -> threadsOf("sharedrestart").isEmpty());
    }
}
