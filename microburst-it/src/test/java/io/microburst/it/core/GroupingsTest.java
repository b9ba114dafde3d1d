package io.microburst.it.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.it.support.Await;
import io.microburst.it.support.ClusterTestSupport;
import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.LifecycleEvent;
import io.microburst.it.support.ModuloGrouping;
import io.microburst.it.support.ModuloGrouping.GroupingPrepared;
import io.microburst.it.support.Received;
import io.microburst.it.support.Topologies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * One topology with a two-task spout of 40 keyed tuples, subscribed by a three-task bolt per grouping; each test checks the
 * routing rule of one grouping. The topology runs once per test (the scope is per test), which keeps the tests independent.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GroupingsTest extends ClusterTestSupport {
    private static final int TUPLES = 40;
    private static final int BOLT_TASKS = 3;
    private static final List<String> GROUPINGS =
        List.of("shuffle", "localOrShuffle", "fields", "all", "global", "none", "partialKey", "custom");

    private final List<String> sentValues = new ArrayList<>();

    @BeforeEach
    void runTopology() throws Exception {
        List<List<Object>> tuples = new ArrayList<>();
        sentValues.clear();
        for (int n = 0; n < TUPLES; n++) {
            tuples.add(List.of("k" + (n % 7), n));
            sentValues.add(List.of("k" + (n % 7), n).toString());
        }
        Collections.sort(sentValues);
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", FixedTuplesSpout.of(scope, new Fields("key", "n"), tuples), 2);
        builder.setBolt("shuffle", new CollectingBolt(scope), BOLT_TASKS).shuffleGrouping("spout");
        builder.setBolt("localOrShuffle", new CollectingBolt(scope), BOLT_TASKS).localOrShuffleGrouping("spout");
        builder.setBolt("fields", new CollectingBolt(scope), BOLT_TASKS).fieldsGrouping("spout", new Fields("key"));
        builder.setBolt("all", new CollectingBolt(scope), BOLT_TASKS).allGrouping("spout");
        builder.setBolt("global", new CollectingBolt(scope), BOLT_TASKS).globalGrouping("spout");
        builder.setBolt("none", new CollectingBolt(scope), BOLT_TASKS).noneGrouping("spout");
        builder.setBolt("partialKey", new CollectingBolt(scope), BOLT_TASKS).partialKeyGrouping("spout", new Fields("key"));
        builder.setBolt("custom", new CollectingBolt(scope), BOLT_TASKS).customGrouping("spout", new ModuloGrouping(scope, 1));
        submit("groupings", Topologies.baseConf(), builder.createTopology());

        int expected = TUPLES * (GROUPINGS.size() - 1) + TUPLES * BOLT_TASKS;
        Await.until(expected + " deliveries", () -> recorded(Received.class).size() >= expected, Await.DEFAULT_LIMIT,
            () -> countsByComponent().toString());
        Await.never("more than " + expected + " deliveries", () -> recorded(Received.class).size() > expected, Duration.ofMillis(300));
    }

    @Test
    void everyGroupingButAllDeliversEachTupleExactlyOnce() {
        for (String grouping : GROUPINGS) {
            if (!grouping.equals("all")) {
                assertEquals(sentValues, sortedValues(receivedBy(grouping)), grouping + " must deliver each tuple once");
            }
        }
    }

    @Test
    void shuffleSpreadsOverTasks() {
        assertTrue(tasksUsed(receivedBy("shuffle")).size() > 1, "40 shuffled tuples all went to one of 3 tasks");
    }

    @Test
    void fieldsSendsEqualKeysToOneTask() {
        for (Map.Entry<Object, Set<Integer>> key : tasksByKey(receivedBy("fields")).entrySet()) {
            assertEquals(1, key.getValue().size(), "key " + key.getKey() + " went to tasks " + key.getValue());
        }
        assertTrue(tasksUsed(receivedBy("fields")).size() > 1, "7 keys all hashed to one of 3 tasks");
    }

    @Test
    void partialKeySendsEachKeyToAtMostTwoTasks() {
        for (Map.Entry<Object, Set<Integer>> key : tasksByKey(receivedBy("partialKey")).entrySet()) {
            assertTrue(key.getValue().size() <= 2, "key " + key.getKey() + " went to tasks " + key.getValue());
        }
    }

    @Test
    void allSendsEveryTupleToEveryTask() {
        Map<Integer, List<Received>> byTask = receivedBy("all").stream().collect(Collectors.groupingBy(Received::taskId));
        assertEquals(preparedTasks("all"), byTask.keySet());
        for (List<Received> ofTask : byTask.values()) {
            assertEquals(sentValues, sortedValues(ofTask));
        }
    }

    @Test
    void globalSendsEverythingToTheLowestTaskId() {
        Set<Integer> tasks = preparedTasks("global");
        assertEquals(BOLT_TASKS, tasks.size());
        assertEquals(Set.of(Collections.min(tasks)), tasksUsed(receivedBy("global")));
    }

    @Test
    void customGroupingIsPreparedWithItsTargetsAndItsChoiceIsHonoured() {
        List<GroupingPrepared> prepares = recorded(GroupingPrepared.class);
        assertEquals(2, prepares.size(), "one prepare per emitting spout task: " + prepares);
        for (GroupingPrepared prepared : prepares) {
            assertEquals("spout", prepared.sourceComponent());
            assertEquals("default", prepared.stream());
            assertTrue(prepared.hadContext(), "prepare must receive a WorkerTopologyContext");
            assertEquals(2, prepared.sourceTasksFromContext().size(), "the context must know the spout's tasks");
            assertEquals(preparedTasks("custom"), new HashSet<>(prepared.targetTasks()));
        }
        List<Integer> targets = prepares.get(0).targetTasks();
        for (Received received : receivedBy("custom")) {
            int n = (Integer) received.values().get(1);
            assertEquals(targets.get(n % targets.size()).intValue(), received.taskId(), "tuple " + received.values());
        }
    }

    private Map<String, Long> countsByComponent() {
        return recorded(Received.class).stream().collect(Collectors.groupingBy(Received::component, Collectors.counting()));
    }

    private List<Received> receivedBy(String component) {
        return recorded(Received.class).stream().filter(r -> r.component().equals(component)).collect(Collectors.toList());
    }

    private Set<Integer> preparedTasks(String component) {
        return recorded(LifecycleEvent.class).stream()
            .filter(e -> e.component().equals(component) && e.callback().equals("prepare"))
            .map(LifecycleEvent::taskId).collect(Collectors.toSet());
    }

    static List<String> sortedValues(List<Received> received) {
        return received.stream().map(r -> r.values().toString()).sorted().collect(Collectors.toList());
    }

    static Set<Integer> tasksUsed(List<Received> received) {
        return received.stream().map(Received::taskId).collect(Collectors.toSet());
    }

    static Map<Object, Set<Integer>> tasksByKey(List<Received> received) {
        Map<Object, Set<Integer>> byKey = new HashMap<>();
        for (Received r : received) {
            byKey.computeIfAbsent(r.values().get(0), k -> new HashSet<>()).add(r.taskId());
        }
        return byKey;
    }
}
