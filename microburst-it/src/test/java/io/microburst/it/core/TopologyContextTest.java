package io.microburst.it.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.it.support.Await;
import io.microburst.it.support.ClusterTestSupport;
import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.RecordingWorkerHook;
import io.microburst.it.support.Topologies;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a task learns from its TopologyContext in prepare: its place in the topology, its streams, and the worker's resources. */
class TopologyContextTest extends ClusterTestSupport {
    private String topologyName;
    private List<ContextSnapshot> snapshots;

    @BeforeEach
    void runTopology() throws Exception {
        List<List<Object>> tuples = new ArrayList<>();
        for (int n = 0; n < 4; n++) {
            tuples.add(List.of("k", n));
        }
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", FixedTuplesSpout.of(scope, new Fields("key", "n"), tuples), 2);
        builder.setBolt("probe", new ContextProbeBolt(scope), 2).setNumTasks(4).shuffleGrouping("spout");
        builder.setBolt("down", new CollectingBolt(scope), 1).fieldsGrouping("probe", new Fields("x"));
        builder.setBolt("side", new CollectingBolt(scope), 1).globalGrouping("probe", "side");
        builder.addWorkerHook(new RecordingWorkerHook(scope));
        topologyName = submit("context", Topologies.baseConf(), builder.createTopology());
        Await.until("4 probe tasks prepared", () -> Recorder.count(scope, ContextSnapshot.class) == 4);
        snapshots = recorded(ContextSnapshot.class);
    }

    @Test
    void taskIdsIndexesAndComponentTasksAgree() {
        List<Integer> componentTasks = snapshots.get(0).componentTasks();
        assertEquals(4, componentTasks.size());
        assertEquals(new TreeSet<>(componentTasks), snapshots.stream().map(ContextSnapshot::taskId).collect(Collectors.toCollection(TreeSet::new)));
        assertEquals(Set.of(0, 1, 2, 3), snapshots.stream().map(ContextSnapshot::taskIndex).collect(Collectors.toSet()));
        List<Integer> sorted = new ArrayList<>(new TreeSet<>(componentTasks));
        for (ContextSnapshot snapshot : snapshots) {
            assertEquals(componentTasks, snapshot.componentTasks(), "every task sees the same component task list");
            assertEquals(sorted.indexOf(snapshot.taskId()), snapshot.taskIndex(), "the index is the position among sorted task ids");
            assertEquals("probe", snapshot.component());
            assertEquals("probe", snapshot.componentOfOwnTask());
            assertEquals(2, snapshot.spoutTasks().size(), "the context knows other components' tasks");
        }
    }

    @Test
    void outputStreamsAndFields() {
        for (ContextSnapshot snapshot : snapshots) {
            assertTrue(snapshot.streams().containsAll(Set.of("default", "side")), snapshot.streams().toString());
            assertEquals(List.of("x"), snapshot.outputFields().get("default"));
            assertEquals(List.of("y", "z"), snapshot.outputFields().get("side"));
        }
    }

    @Test
    void sourcesTargetsAndInputFields() {
        for (ContextSnapshot snapshot : snapshots) {
            assertEquals(Map.of("spout:default", "shuffle"), snapshot.sources());
            assertEquals(Map.of("default", Map.of("down", "fields"), "side", Map.of("side", "global")), onlyUserStreams(snapshot.targets()),
                "(a global grouping is a fields grouping on no field in Storm's thrift model)");
            assertEquals(Map.of("default", List.of("key", "n")), snapshot.inputFields().get("spout"));
            assertTrue(snapshot.componentIds().containsAll(Set.of("spout", "probe", "down", "side")), snapshot.componentIds().toString());
        }
    }

    @Test
    void configurationNamesTheTopology() {
        for (ContextSnapshot snapshot : snapshots) {
            assertEquals(topologyName, snapshot.topologyNameInConf());
            assertNotNull(snapshot.stormId());
            assertTrue(snapshot.stormId().startsWith(topologyName), "a storm id starts with the topology name: " + snapshot.stormId());
        }
    }

    @Test
    void defaultAndUserResources() {
        for (ContextSnapshot snapshot : snapshots) {
            assertEquals("ran", snapshot.sharedExecutorResult(), "the shared executor must run work");
            assertEquals("hello " + scope, snapshot.userResource(), "the resource a worker hook set at start");
            assertTrue(snapshot.workerTasks().contains(snapshot.taskId()), "the worker's tasks include this one");
        }
    }

    private static Map<String, Map<String, String>> onlyUserStreams(Map<String, Map<String, String>> targets) {
        Map<String, Map<String, String>> user = new TreeMap<>();
        targets.forEach((stream, byComponent) -> {
            if (!stream.startsWith("__")) {
                user.put(stream, byComponent);
            }
        });
        return user;
    }

    /** What a task saw in its context at prepare. Groupings are reduced to a name ("global" for fields grouping on no field). */
    record ContextSnapshot(String component, int taskId, int taskIndex, List<Integer> componentTasks, String componentOfOwnTask,
                           List<Integer> spoutTasks, Set<String> streams, Map<String, List<String>> outputFields,
                           Map<String, String> sources, Map<String, Map<String, String>> targets,
                           Map<String, Map<String, List<String>>> inputFields, Set<String> componentIds, String topologyNameInConf,
                           String stormId, String sharedExecutorResult, Object userResource, List<Integer> workerTasks) {
    }

    static final class ContextProbeBolt extends BaseRichBolt {
        private final String scope;
        private transient OutputCollector collector;

        ContextProbeBolt(String scope) {
            this.scope = scope;
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            Map<String, String> sources = new TreeMap<>();
            for (Map.Entry<GlobalStreamId, Grouping> source : context.getThisSources().entrySet()) {
                sources.put(source.getKey().get_componentId() + ":" + source.getKey().get_streamId(), groupingName(source.getValue()));
            }
            Map<String, Map<String, String>> targets = new TreeMap<>();
            context.getThisTargets().forEach((stream, byComponent) -> {
                Map<String, String> names = new TreeMap<>();
                byComponent.forEach((component, grouping) -> names.put(component, groupingName(grouping)));
                targets.put(stream, names);
            });
            Map<String, List<String>> outputFields = new HashMap<>();
            for (String stream : context.getThisStreams()) {
                outputFields.put(stream, context.getThisOutputFields(stream).toList());
            }
            String executorResult;
            try {
                executorResult = context.getSharedExecutor().submit(() -> "ran").get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                executorResult = "failed: " + e;
            }
            Recorder.record(scope, new ContextSnapshot(context.getThisComponentId(), context.getThisTaskId(), context.getThisTaskIndex(),
                context.getComponentTasks(context.getThisComponentId()), context.getComponentId(context.getThisTaskId()),
                context.getComponentTasks("spout"), Set.copyOf(context.getThisStreams()), outputFields, sources, targets,
                context.getThisInputFields(), Set.copyOf(context.getComponentIds()), String.valueOf(topoConf.get(Config.TOPOLOGY_NAME)),
                context.getStormId(), executorResult, context.getResource(RecordingWorkerHook.RESOURCE),
                List.copyOf(context.getThisWorkerTasks())));
        }

        private static String groupingName(Grouping grouping) {
            if (grouping.is_set_fields()) {
                return grouping.get_fields().isEmpty() ? "global" : "fields";
            }
            return grouping.getSetField().getFieldName();
        }

        @Override
        public void execute(Tuple input) {
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("x"));
            declarer.declareStream("side", new Fields("y", "z"));
        }
    }
}
