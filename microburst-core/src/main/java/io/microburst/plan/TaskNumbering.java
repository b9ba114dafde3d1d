package io.microburst.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.storm.generated.StormTopology;

/**
 * The task ids of a planned topology: Storm's own (see {@link StormTaskIds}), system components included, or, only if
 * Storm cannot number the topology, ids dense from 1 over the user's components in sorted order. The ids Storm gives its
 * system components are kept apart: reserved, never run.
 *
 * <p>Threading: built and read on the planning thread; the maps it hands out are unmodifiable.
 */
final class TaskNumbering {
    private final Map<String, List<Integer>> componentTasks;
    private final Map<Integer, String> taskToComponent;
    private final Map<String, List<Integer>> systemTasks;
    private final int maxTaskId;

    private TaskNumbering(Map<String, List<Integer>> componentTasks, Map<Integer, String> taskToComponent,
                          Map<String, List<Integer>> systemTasks, int maxTaskId) {
        this.componentTasks = componentTasks;
        this.taskToComponent = taskToComponent;
        this.systemTasks = systemTasks;
        this.maxTaskId = maxTaskId;
    }

    /** Numbers the tasks of {@code topology}, whose user components {@code sizes} lists in sorted order. */
    static TaskNumbering of(StormTopology topology, Map<String, Object> conf, ComponentSizes sizes) {
        Map<Integer, String> stormTasks = StormTaskIds.number(topology, conf, sizes.tasks());
        Map<String, List<Integer>> stormComponentTasks = new TreeMap<>();
        if (stormTasks != null) {
            for (Map.Entry<Integer, String> e : new TreeMap<>(stormTasks).entrySet()) {
                stormComponentTasks.computeIfAbsent(e.getValue(), k -> new ArrayList<>()).add(e.getKey());
            }
        }
        Map<Integer, String> taskToComponent = new HashMap<>();
        Map<String, List<Integer>> componentTasks = new HashMap<>();
        int nextTask = 1;
        int maxTask = 0;
        for (String id : sizes.confs().keySet()) {
            int tasks = sizes.tasks().get(id);
            List<Integer> numbered = stormComponentTasks.get(id);
            List<Integer> ids = new ArrayList<>(tasks);
            for (int t = 0; t < tasks; t++) {
                int taskId = numbered != null && numbered.size() == tasks ? numbered.get(t) : nextTask;
                nextTask = taskId + 1;
                taskToComponent.put(taskId, id);
                ids.add(taskId);
                maxTask = Math.max(maxTask, taskId);
            }
            componentTasks.put(id, Collections.unmodifiableList(ids));
        }
        Map<String, List<Integer>> systemTasks = new TreeMap<>();
        stormComponentTasks.forEach((id, ids) -> {
            if (!componentTasks.containsKey(id)) {
                systemTasks.put(id, List.copyOf(ids));
            }
        });
        return new TaskNumbering(Collections.unmodifiableMap(componentTasks),
            Collections.unmodifiableMap(taskToComponent), Collections.unmodifiableMap(systemTasks), maxTask);
    }

    /** Sorted task ids of each user component. */
    Map<String, List<Integer>> componentTasks() {
        return componentTasks;
    }

    /** The user component running each task id. */
    Map<Integer, String> taskToComponent() {
        return taskToComponent;
    }

    /** The ids Storm gives the components it adds, by component id; empty if Storm could not number the topology. */
    Map<String, List<Integer>> systemTasks() {
        return systemTasks;
    }

    /** Highest task id of a user component. */
    int maxTaskId() {
        return maxTaskId;
    }
}
