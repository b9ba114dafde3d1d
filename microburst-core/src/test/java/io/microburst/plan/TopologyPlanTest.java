package io.microburst.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.microburst.MicroburstConfig;
import org.apache.storm.Config;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.testing.TestWordCounter;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

class TopologyPlanTest {
    private static TopologyPlan plan(StormTopology t, Map<String, Object> extra) throws InvalidTopologyException {
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        conf.putAll(extra);
        return TopologyPlan.build("t", "t-1", conf, t);
    }

    private static String refusal(TopologyBuilder b) {
        return assertThrows(InvalidTopologyException.class, () -> plan(b.createTopology(), Map.of())).get_msg();
    }

    @Test
    void placementAndParallelismValuesAreCheckedAtSubmit() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("words", new TestWordSpout());
        String msg = assertThrows(InvalidTopologyException.class, () -> plan(b.createTopology(),
            Map.of(MicroburstConfig.PLACEMENT, "fastest"))).get_msg();
        assertTrue(msg.contains(MicroburstConfig.PLACEMENT) && msg.contains("fastest"), msg);
        msg = assertThrows(InvalidTopologyException.class, () -> plan(b.createTopology(),
            Map.of(MicroburstConfig.PARALLELISM, 3))).get_msg();
        assertTrue(msg.contains(MicroburstConfig.PARALLELISM) && msg.contains("auto"), msg);
    }

    @Test
    void theThreadBudgetIsCheckedAtSubmit() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("words", new TestWordSpout());
        String msg = assertThrows(InvalidTopologyException.class, () -> plan(b.createTopology(),
            Map.of(MicroburstConfig.EXECUTOR_THREADS_MAX, 0))).get_msg();
        assertTrue(msg.contains(MicroburstConfig.EXECUTOR_THREADS_MAX) && msg.contains("at least 1"), msg);
    }

    @Test
    void eachTaskKnowsItsExecutorAsStormSplitsTasks() throws Exception {
        for (int tasks = 1; tasks <= 13; tasks++) {
            for (int executors = 1; executors <= tasks; executors++) {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("words", new TestWordSpout(), executors).setNumTasks(tasks);
                ComponentPlan c = plan(b.createTopology(), Map.of()).component("words");
                List<List<Integer>> ranges = c.tasksPerExecutor();
                for (int e = 0; e < ranges.size(); e++) {
                    for (int task : ranges.get(e)) {
                        assertEquals(e, c.executorOf(task), tasks + " tasks, " + executors + " executors, task " + task);
                    }
                }
            }
        }
    }

    @Test
    void writesToTheConfigurationHandedOutStayWithTheirHolder() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("words", new TestWordSpout());
        TopologyPlan p = plan(b.createTopology(), Map.of());
        Map<String, Object> first = p.component("words").conf();
        first.put("written", 1);
        first.remove(Config.TOPOLOGY_NAME);
        assertEquals(1, first.get("written"));
        assertFalse(p.component("words").conf().containsKey("written"));
        assertFalse(p.conf().containsKey("written"));
        Map<String, Object> topology = p.conf();
        topology.put("written", 2);
        assertFalse(p.conf().containsKey("written"));
    }

    @Test
    void assignsTaskIdsByComponentOrderAndSplitsExecutors() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("words", new TestWordSpout(), 2);
        b.setBolt("count", new TestWordCounter(), 2).setNumTasks(5).fieldsGrouping("words", new Fields("word"));
        // Storm numbers its acker (one per worker by default: "__acker" sorts first) among the user's components
        TopologyPlan p = plan(b.createTopology(), Map.of());
        assertEquals(List.of(2, 3, 4, 5, 6), p.component("count").taskIds());
        assertEquals(List.of(7, 8), p.component("words").taskIds());
        assertEquals(List.of(List.of(2, 3, 4), List.of(5, 6)), p.component("count").tasksPerExecutor());
        assertEquals(7, p.taskCount());
        assertEquals(8, p.maxTaskId());
        assertEquals(Map.of("__acker", List.of(1)), p.systemComponentTasks());
        assertEquals(List.of(2, 3, 4, 5, 6, 7, 8), p.taskToComponent().keySet().stream().sorted().toList());

        TopologyPlan none = plan(b.createTopology(), Map.of(Config.TOPOLOGY_ACKER_EXECUTORS, 0));
        assertEquals(List.of(1, 2, 3, 4, 5), none.component("count").taskIds());
        assertEquals(List.of(6, 7), none.component("words").taskIds());
        assertEquals(Map.of(), none.systemComponentTasks());
    }

    @Test
    void reservesTheIdsOfStormsSystemComponents() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("Upper", new TestWordSpout(), 1);
        b.setSpout("words", new TestWordSpout(), 2);
        b.setBolt("count", new TestWordCounter(), 2).fieldsGrouping("words", new Fields("word"));
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_WORKERS, 2);
        conf.put(Config.TOPOLOGY_EVENTLOGGER_EXECUTORS, 1);
        conf.put(Config.TOPOLOGY_METRICS_CONSUMER_REGISTER, List.of(
            Map.of("class", "org.apache.storm.metric.LoggingMetricsConsumer", "parallelism.hint", 2),
            Map.of("class", "org.apache.storm.metric.LoggingMetricsConsumer", "parallelism.hint", 1)));
        TopologyPlan p = plan(b.createTopology(), conf);
        // "Upper" < "__acker" < "__eventlogger" < "__metrics_..." < "count" < "words"
        assertEquals(List.of(1), p.component("Upper").taskIds());
        assertEquals(Map.of("__acker", List.of(2, 3), "__eventlogger", List.of(4),
            "__metrics_org.apache.storm.metric.LoggingMetricsConsumer", List.of(5, 6),
            "__metrics_org.apache.storm.metric.LoggingMetricsConsumer#2", List.of(7)), p.systemComponentTasks());
        assertEquals(List.of(8, 9), p.component("count").taskIds());
        assertEquals(List.of(10, 11), p.component("words").taskIds());
        assertEquals(5, p.taskCount());
        assertEquals(11, p.maxTaskId());
    }

    @Test
    void refusesNamingTheCulprit() {
        TopologyBuilder unknown = new TopologyBuilder();
        unknown.setSpout("s", new TestWordSpout());
        unknown.setBolt("b", new TestWordCounter()).shuffleGrouping("nope");
        assertTrue(refusal(unknown).contains("'nope'"));

        TopologyBuilder stream = new TopologyBuilder();
        stream.setSpout("s", new TestWordSpout());
        stream.setBolt("b", new TestWordCounter()).shuffleGrouping("s", "other");
        assertTrue(refusal(stream).contains("'other'"));

        TopologyBuilder field = new TopologyBuilder();
        field.setSpout("s", new TestWordSpout());
        field.setBolt("b", new TestWordCounter()).fieldsGrouping("s", new Fields("colour"));
        assertTrue(refusal(field).contains("'colour'"));

        TopologyBuilder noSpout = new TopologyBuilder();
        noSpout.setBolt("b", new TestWordCounter());
        assertTrue(refusal(noSpout).contains("no spouts"));

        TopologyBuilder zero = new TopologyBuilder();
        zero.setSpout("s", new TestWordSpout());
        StormTopology t = zero.createTopology();
        t.get_spouts().get("s").get_common().set_parallelism_hint(0);
        String msg = assertThrows(InvalidTopologyException.class, () -> plan(t, Map.of())).get_msg();
        assertTrue(msg.contains("'s'") && msg.contains("parallelism"), msg);
    }

    @Test
    void refusesInvalidConfigurationNamingTheKey() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("s", new TestWordSpout());
        String msg = assertThrows(InvalidTopologyException.class,
            () -> plan(b.createTopology(), Map.of(Config.TOPOLOGY_MAX_SPOUT_PENDING, "many"))).get_msg();
        assertTrue(msg.contains(Config.TOPOLOGY_MAX_SPOUT_PENDING), msg);
    }

    @Test
    void validatesOnlyValuesThatDifferFromTheTrustedDefaults() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("s", new TestWordSpout());
        // A trusted value is not validated again (Storm's own defaults are valid by construction)...
        Map<String, Object> trusted = Map.of(Config.TOPOLOGY_WORKERS, "trusted");
        TopologyPlan.build("t", "t-1", Map.of(Config.TOPOLOGY_WORKERS, "trusted"), b.createTopology(), trusted);
        // ...but a user's value for the same key is, and the error names the key and the value.
        String msg = assertThrows(InvalidTopologyException.class, () -> TopologyPlan.build("t", "t-1",
            Map.of(Config.TOPOLOGY_WORKERS, "two"), b.createTopology(), trusted)).get_msg();
        assertTrue(msg.contains(Config.TOPOLOGY_WORKERS) && msg.contains("two"), msg);
    }

    @Test
    void refusesInvalidComponentConfigurationNamingComponentAndKey() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("s", new TestWordSpout()).addConfiguration(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, "often");
        String msg = assertThrows(InvalidTopologyException.class, () -> plan(b.createTopology(), Map.of())).get_msg();
        assertTrue(msg.contains("'s'") && msg.contains(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS), msg);
    }

    @Test
    void componentConfigurationOverridesOnlyWhatStormAllows() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("s", new TestWordSpout());
        b.setBolt("b", new TestWordCounter()).shuffleGrouping("s")
            .addConfiguration(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 3)
            .addConfiguration(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 99)
            .addConfiguration("my.key", "mine");
        TopologyPlan p = plan(b.createTopology(), Map.of(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 30));
        Map<String, Object> conf = p.component("b").conf();
        assertEquals(3, ((Number) conf.get(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS)).intValue());
        assertEquals(30, ((Number) conf.get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS)).intValue());
        assertEquals("mine", conf.get("my.key"));
    }

    @Test
    void fusesOnlyOneToOneAcyclicEdges() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("s", new TestWordSpout(), 2);
        b.setBolt("forward", new TestWordCounter(), 2).localOrShuffleGrouping("s");
        b.setBolt("spread", new TestWordCounter(), 3).shuffleGrouping("forward");
        b.setBolt("join", new TestWordCounter(), 1).shuffleGrouping("s").shuffleGrouping("forward");
        b.setBolt("loopA", new TestWordCounter(), 1).shuffleGrouping("spread").shuffleGrouping("loopB");
        b.setBolt("loopB", new TestWordCounter(), 1).shuffleGrouping("loopA");
        TopologyPlan p = plan(b.createTopology(), Map.of());
        FusionPlan f = FusionPlan.of(p);
        assertEquals("s", f.fusedInto("forward"));
        assertNull(f.fusedInto("spread"), "1 -> 3 shuffle crosses threads");
        assertNull(f.fusedInto("join"), "two inputs");
        assertNull(f.fusedInto("loopB"), "on a cycle");
        assertTrue(p.onCycle("loopA", "loopB"));
        assertFalse(p.onCycle("s", "forward"));
        assertFalse(FusionPlan.of(plan(b.createTopology(), Map.of(MicroburstConfig.FUSION, false))).isFused("forward"));
    }

    @Test
    void countsFusedDepthAlongAChain() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("s", new TestWordSpout(), 1);
        b.setBolt("a", new TestWordCounter(), 1).shuffleGrouping("s");
        b.setBolt("b", new TestWordCounter(), 1).fieldsGrouping("a", new Fields("word"));
        b.setBolt("c", new TestWordCounter(), 1).localOrShuffleGrouping("b");
        b.setBolt("wide", new TestWordCounter(), 2).shuffleGrouping("c");
        FusionPlan f = FusionPlan.of(plan(b.createTopology(), Map.of()));
        assertEquals(0, f.depth("s"));
        assertEquals(1, f.depth("a"));
        assertEquals(2, f.depth("b"));
        assertEquals(3, f.depth("c"));
        assertEquals(0, f.depth("wide"), "1 -> 2 shuffle crosses threads");
    }
    @Test
    void slicesComponentsOfEqualParallelismWhenExecutorsOutnumberCores() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("sentences", new TestWordSpout(), 2);
        b.setBolt("split", new TestWordCounter(), 2).shuffleGrouping("sentences");
        b.setBolt("count", new TestWordCounter(), 2).fieldsGrouping("split", new Fields("word"));
        TopologyPlan p = plan(b.createTopology(), Map.of());
        FusionPlan two = FusionPlan.of(p, 2);
        for (String c : new String[] {"sentences", "split", "count"}) {
            assertTrue(two.isSliced(c), c);
            assertEquals(two.sliceSet("sentences"), two.sliceSet(c), c);
        }
        assertEquals(0, two.depth("sentences"));
        assertEquals(1, two.depth("split"), "adjacent slice members get different execute copies");
        assertEquals(2, two.depth("count"));
        assertFalse(FusionPlan.of(p, 6).isSliced("split"), "six executors fit six cores");
        assertFalse(FusionPlan.of(p, 4).isSliced("split"), "two slices would leave two of four cores idle");
        assertFalse(FusionPlan.of(plan(b.createTopology(), Map.of(MicroburstConfig.FUSION, false)), 2).isSliced("split"));
    }

    @Test
    void slicesOnlyLinkedComponentsOfTheSameParallelism() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("s", new TestWordSpout(), 1);
        b.setBolt("pass", new TestWordCounter(), 3).shuffleGrouping("s");
        b.setBolt("count", new TestWordCounter(), 3).fieldsGrouping("pass", new Fields("word"));
        b.setBolt("wide", new TestWordCounter(), 4).shuffleGrouping("count");
        b.setBolt("loopA", new TestWordCounter(), 3).shuffleGrouping("count").shuffleGrouping("loopB");
        b.setBolt("loopB", new TestWordCounter(), 3).shuffleGrouping("loopA");
        Config own = new Config();
        own.put(MicroburstConfig.FUSION, false);
        b.setBolt("alone", new TestWordCounter(), 3).shuffleGrouping("pass").addConfigurations(own);
        FusionPlan f = FusionPlan.of(plan(b.createTopology(), Map.of()), 2);
        assertTrue(f.isSliced("pass") && f.isSliced("count"));
        assertEquals(f.sliceSet("pass"), f.sliceSet("count"));
        assertFalse(f.isSliced("s"), "one executor");
        assertFalse(f.isSliced("wide"), "four executors against three");
        assertFalse(f.isSliced("alone"), "fusion turned off for it");
        assertTrue(!f.isSliced("loopA") || f.sliceSet("loopA") != f.sliceSet("loopB"),
            "the edge between two components on a cycle is not a slice edge");
        assertEquals(0, f.depth("pass"));
        assertEquals(1, f.depth("count"));
    }
}
