package io.microburst.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.microburst.plan.ComponentPlan;
import io.microburst.plan.FusionPlan;
import io.microburst.plan.TopologyPlan;

/**
 * Which tasks share a thread: a pure function of the plan and its fusion decisions, with no threads or state.
 * Unfused components get their own executor ranges, except that executor k of every component of a slice set shares
 * one thread; fused components join the executors of the producer tasks that feed them.
 *
 * <p>Threading: stateless; any thread.
 */
final class ThreadLayout {
    /** One task of a group: its component and id. */
    record Member(ComponentPlan component, int taskId) {
    }

    private ThreadLayout() {
    }

    /** The tasks of each executor, in executor order. */
    static List<List<Member>> groups(TopologyPlan plan, FusionPlan fusion) {
        List<List<Member>> groups = new ArrayList<>();
        Map<Integer, Integer> groupOfTask = new HashMap<>();
        Map<List<Integer>, Integer> sliceGroups = new HashMap<>();
        for (ComponentPlan c : plan.components().values()) {
            if (fusion.isFused(c.id())) {
                continue;
            }
            List<List<Integer>> ranges = c.tasksPerExecutor();
            for (int k = 0; k < ranges.size(); k++) {
                int g = groups.size();
                if (fusion.isSliced(c.id())) {
                    g = sliceGroups.computeIfAbsent(List.of(fusion.sliceSet(c.id()), k), key -> groups.size());
                }
                if (g == groups.size()) {
                    groups.add(new ArrayList<>());
                }
                for (int taskId : ranges.get(k)) {
                    groups.get(g).add(new Member(c, taskId));
                    groupOfTask.put(taskId, g);
                }
            }
        }
        boolean placedAny = true;
        while (placedAny) {
            placedAny = false;
            for (ComponentPlan c : plan.components().values()) {
                String producer = fusion.fusedInto(c.id());
                if (producer == null || groupOfTask.containsKey(c.taskIds().get(0))) {
                    continue;
                }
                List<Integer> producerTasks = plan.component(producer).taskIds();
                if (!groupOfTask.containsKey(producerTasks.get(0))) {
                    continue;
                }
                for (int i = 0; i < c.taskIds().size(); i++) {
                    int group = groupOfTask.get(producerTasks.get(i));
                    groups.get(group).add(new Member(c, c.taskIds().get(i)));
                    groupOfTask.put(c.taskIds().get(i), group);
                }
                placedAny = true;
            }
        }
        return groups;
    }

    /** The thread name of an executor: its components joined by '+', and its task range. */
    static String executorName(String topologyName, List<Member> group) {
        StringBuilder components = new StringBuilder();
        int first = Integer.MAX_VALUE;
        int last = Integer.MIN_VALUE;
        String previous = null;
        for (Member member : group) {
            String id = member.component().id();
            if (!id.equals(previous)) {
                if (previous != null) {
                    components.append('+');
                }
                components.append(id);
                previous = id;
            }
            first = Math.min(first, member.taskId());
            last = Math.max(last, member.taskId());
        }
        return "microburst-" + topologyName + "-" + components + "[" + first + (last > first ? "-" + last : "") + "]";
    }
}
