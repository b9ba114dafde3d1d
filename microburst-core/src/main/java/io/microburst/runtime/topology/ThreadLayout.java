package io.microburst.runtime.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.microburst.config.ConfigKeys;
import io.microburst.plan.ComponentPlan;
import io.microburst.plan.FusionPlan;
import io.microburst.plan.TopologyPlan;
import org.apache.storm.utils.ObjectReader;

/**
 * Which tasks share a thread: a pure function of the plan and its fusion decisions, with no threads or state.
 * Unfused components get their own executor ranges, except that executor k of every component of a slice set shares
 * one thread; fused components join the executors of the producer tasks that feed them. When there are more groups
 * than the topology's thread budget, they are dealt out over that many shared threads ({@link #share}).
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

    /**
     * The most executor threads a topology starts with: {@link ConfigKeys#EXECUTOR_THREADS_MAX}, by default
     * {@link ConfigKeys#DEFAULT_EXECUTOR_THREADS_PER_CORE} per core and at least
     * {@link ConfigKeys#DEFAULT_EXECUTOR_THREADS_MIN}, far above what a topology sized for one machine needs.
     */
    static int threadBudget(Map<String, Object> conf, int cores) {
        int fallback = Math.max(ConfigKeys.DEFAULT_EXECUTOR_THREADS_MIN, ConfigKeys.DEFAULT_EXECUTOR_THREADS_PER_CORE * cores);
        return Math.max(1, ObjectReader.getInt(conf.get(ConfigKeys.EXECUTOR_THREADS_MAX), fallback));
    }

    /**
     * Deals {@code groups} out over {@code budget} shared threads (carriers), group i to carrier i modulo the budget,
     * so the executors of each component spread evenly over them; a group is never split, so each Storm executor's
     * tasks (and whatever is fused or sliced with them) stay on one thread. Groups within the budget are returned as
     * they are.
     */
    static List<List<Member>> share(List<List<Member>> groups, int budget) {
        if (groups.size() <= budget) {
            return groups;
        }
        List<List<Member>> carriers = new ArrayList<>(budget);
        for (int i = 0; i < budget; i++) {
            carriers.add(new ArrayList<>());
        }
        for (int g = 0; g < groups.size(); g++) {
            carriers.get(g % budget).addAll(groups.get(g));
        }
        return carriers;
    }

    /** The thread name of a shared thread: its number of how many (its components may be too many to list). */
    static String carrierName(String topologyName, int carrier, int carriers) {
        return "microburst-" + topologyName + "-carrier" + carrier + "-of-" + carriers;
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
