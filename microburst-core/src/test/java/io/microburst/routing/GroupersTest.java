package io.microburst.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.grouping.CustomStreamGrouping;
import org.apache.storm.task.WorkerTopologyContext;
import org.junit.jupiter.api.Test;

class GroupersTest {
    private static final List<Integer> TARGETS = List.of(4, 5, 6, 7);

    @Test
    void shuffleSpreadsEvenly() {
        ShuffleGrouper g = new ShuffleGrouper(TARGETS);
        Map<Integer, Integer> counts = new HashMap<>();
        for (int i = 0; i < 400; i++) {
            counts.merge(g.chooseTasks(List.of("x")).get(0), 1, Integer::sum);
        }
        assertEquals(Map.of(4, 100, 5, 100, 6, 100, 7, 100), counts);
    }

    @Test
    void aSingleChoiceAsANumberIsTheTaskTheListWouldName() {
        FieldsGrouper fields = new FieldsGrouper(TARGETS, new int[] {1});
        for (int i = 0; i < 200; i++) {
            List<Object> values = List.of(i, "k" + i);
            assertEquals(fields.chooseTasks(values).get(0), fields.chooseTask(values), "key k" + i);
        }
        assertEquals(9, new FieldsGrouper(List.of(9), new int[] {0}).chooseTask(List.of("any")));
        // shuffle: the number and the list advance one round robin, so mixing them still spreads evenly
        ShuffleGrouper shuffle = new ShuffleGrouper(TARGETS);
        Map<Integer, Integer> counts = new HashMap<>();
        for (int i = 0; i < 400; i++) {
            int task = i % 2 == 0 ? shuffle.chooseTask(List.of("x")) : shuffle.chooseTasks(List.of("x")).get(0);
            counts.merge(task, 1, Integer::sum);
        }
        assertEquals(Map.of(4, 100, 5, 100, 6, 100, 7, 100), counts);
        Grouper own = values -> List.of(1, 2);
        assertEquals(-1, own.chooseTask(List.of("x")), "a grouper of the user's own is always asked for its list");
    }

    @Test
    void fieldsSendsEqualKeysToOneTaskAndUsesEveryTask() {
        FieldsGrouper g = new FieldsGrouper(TARGETS, new int[] {1});
        Map<String, Integer> taskOfKey = new HashMap<>();
        Set<Integer> used = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String key = "k" + (i % 50);
            int task = g.chooseTasks(List.of(i, key)).get(0);
            Integer before = taskOfKey.putIfAbsent(key, task);
            if (before != null) {
                assertEquals(before, task, "key " + key);
            }
            used.add(task);
        }
        assertEquals(Set.copyOf(TARGETS), used);
    }

    /**
     * The hash of the grouping fields is pinned (31 * 1 + each value's hash in turn, then spread): it decides which
     * task holds which key, so a faster way of computing it must give the same value.
     */
    @Test
    void fieldsHashIsPinned() {
        List<Object> values = List.of("alpha", 42L, "omega");
        for (int index = 0; index < values.size(); index++) {
            int h = 31 + values.get(index).hashCode();
            assertEquals(h ^ (h >>> 16), FieldsGrouper.hash(values, new int[] {index}), "field " + index);
        }
        int h = 31 * (31 * (31 + "alpha".hashCode()) + Long.hashCode(42L)) + "omega".hashCode();
        assertEquals(h ^ (h >>> 16), FieldsGrouper.hash(values, new int[] {0, 1, 2}));
        int n = 31; // a null value hashes as 0
        assertEquals(n ^ (n >>> 16), FieldsGrouper.hash(Arrays.asList((Object) null), new int[] {0}));
    }

    @Test
    void fieldsHashesArraysByContent() {
        FieldsGrouper g = new FieldsGrouper(TARGETS, new int[] {0});
        for (int i = 0; i < 20; i++) {
            byte[] a = {(byte) i, 2, 3};
            byte[] b = {(byte) i, 2, 3};
            assertEquals(g.chooseTasks(List.of(a)), g.chooseTasks(List.of(b)));
        }
    }

    @Test
    void globalPicksLowestAndAllPicksEvery() {
        assertEquals(List.of(4), FixedGrouper.global(List.of(7, 4, 6)).chooseTasks(List.of()));
        assertEquals(TARGETS, FixedGrouper.all(TARGETS).chooseTasks(List.of()));
    }

    @Test
    void customGroupingChoosingAForeignTaskFailsLoudly() {
        CustomStreamGrouping wrong = new CustomStreamGrouping() {
            @Override
            public void prepare(WorkerTopologyContext context, GlobalStreamId stream, List<Integer> targetTasks) {
            }

            @Override
            public List<Integer> chooseTasks(int taskId, List<Object> values) {
                return List.of(99);
            }
        };
        CustomGrouper g = new CustomGrouper(wrong, 1, TARGETS, "spout:default -> bolt");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> g.chooseTasks(List.of()));
        assertTrue(e.getMessage().contains("task 99") && e.getMessage().contains("spout:default -> bolt"), e.getMessage());
    }

    @Test
    void onlyTaskIsNamedWhenEveryTupleGoesToOneTaskWithoutAsking() {
        assertEquals(9, new ShuffleGrouper(List.of(9)).onlyTask());
        assertEquals(List.of(9), new ShuffleGrouper(List.of(9)).chooseTasks(List.of("x")));
        assertEquals(-1, new ShuffleGrouper(TARGETS).onlyTask());
        assertEquals(9, new FieldsGrouper(List.of(9), new int[] {0}).onlyTask());
        assertEquals(-1, new FieldsGrouper(TARGETS, new int[] {0}).onlyTask());
        assertEquals(4, FixedGrouper.global(List.of(7, 4, 6)).onlyTask());
        assertEquals(9, FixedGrouper.all(List.of(9)).onlyTask());
        assertEquals(-1, FixedGrouper.all(TARGETS).onlyTask());
        // a user's grouping may drop tuples or keep state: it is asked every time, even with one task to choose from
        CustomStreamGrouping dropsAll = new CustomStreamGrouping() {
            @Override
            public void prepare(WorkerTopologyContext context, GlobalStreamId stream, List<Integer> targetTasks) {
            }

            @Override
            public List<Integer> chooseTasks(int taskId, List<Object> values) {
                return List.of();
            }
        };
        assertEquals(-1, new CustomGrouper(dropsAll, 1, List.of(9), "spout:default -> bolt").onlyTask());
    }
}
