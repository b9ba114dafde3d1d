package io.microburst.plan;

import static io.microburst.plan.PlanChecks.invalid;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.ComponentCommon;
import org.apache.storm.generated.InvalidTopologyException;

/**
 * Each user component's configuration (its own merged over the topology's), task count and executor count, sized as
 * Storm sizes them: executors from the parallelism hint (1 if none), tasks from {@code topology.tasks} (the hint if
 * unset), both capped by {@code topology.max.task.parallelism} (the component's, else the topology's).
 *
 * <p>Threading: built and read on the planning thread.
 *
 * @param confs each component's merged configuration, by component id in sorted order
 * @param tasks each component's task count
 * @param parallelisms each component's executor count before it is capped by its task count
 */
record ComponentSizes(Map<String, Map<String, Object>> confs, Map<String, Integer> tasks,
                      Map<String, Integer> parallelisms) {

    /**
     * Sizes the components of topology {@code name}.
     *
     * @param commons the user's components by id, sorted
     * @throws InvalidTopologyException for a reserved component id or a count below 1
     */
    static ComponentSizes of(Map<String, Object> conf, Map<String, ComponentCommon> commons, String name)
        throws InvalidTopologyException {
        Integer maxParallelism = PlanConf.intConf(conf, Config.TOPOLOGY_MAX_TASK_PARALLELISM, name);
        Map<String, Map<String, Object>> confs = new LinkedHashMap<>();
        Map<String, Integer> taskCounts = new HashMap<>();
        Map<String, Integer> parallelisms = new HashMap<>();
        for (Map.Entry<String, ComponentCommon> e : commons.entrySet()) {
            String id = e.getKey();
            ComponentCommon common = e.getValue();
            if (id.startsWith("__")) {
                throw invalid("Component id '" + id + "' is reserved: ids starting with '__' belong to the system");
            }
            Map<String, Object> componentConf = PlanConf.componentConf(conf, common, id);
            int parallelism = common.is_set_parallelism_hint() ? common.get_parallelism_hint() : 1;
            if (parallelism < 1) {
                throw invalid("Component '" + id + "' has parallelism " + parallelism + "; it must be at least 1");
            }
            Integer declaredTasks = PlanConf.intConf(componentConf, Config.TOPOLOGY_TASKS, id);
            int tasks = declaredTasks == null ? parallelism : declaredTasks;
            if (tasks < 1) {
                throw invalid("Component '" + id + "' has " + tasks + " tasks (topology.tasks); it must be at least 1");
            }
            Integer componentMax = PlanConf.intConf(componentConf, Config.TOPOLOGY_MAX_TASK_PARALLELISM, id);
            Integer cap = componentMax != null ? componentMax : maxParallelism;
            if (cap != null && cap >= 1) {
                tasks = Math.min(tasks, cap);
                parallelism = Math.min(parallelism, cap);
            }
            confs.put(id, componentConf);
            taskCounts.put(id, tasks);
            parallelisms.put(id, parallelism);
        }
        return new ComponentSizes(confs, taskCounts, parallelisms);
    }
}
