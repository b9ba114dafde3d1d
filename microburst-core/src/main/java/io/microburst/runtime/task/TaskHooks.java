package io.microburst.runtime.task;

import java.util.ArrayList;
import java.util.List;
import io.microburst.plan.TopologyPlan;
import org.apache.storm.Config;
import org.apache.storm.hooks.ITaskHook;
import org.apache.storm.hooks.info.EmitInfo;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.utils.TupleUtils;

/**
 * The cold side of a task's hooks: the automatic hooks a topology names, made for each fresh context, and the emit
 * hooks Storm calls. A task checks its hook list per tuple itself and calls here only when it is not empty. Called on
 * the task's executor thread.
 */
final class TaskHooks {
    /** Storm's acker component (storm-client's Acker.ACKER_COMPONENT_ID). */
    static final String ACKER_COMPONENT = "__acker";

    private TaskHooks() {
    }

    /**
     * Adds the hooks of {@code topology.auto.task.hooks} to a fresh context, then the task's debug event sampler
     * ({@link EventSampling#samplerFor}) unless null.
     */
    static void addAutoHooks(TopologyContext context, Object hookNames, ClassLoader loader, EmitSampler sampler) {
        if (sampler != null) {
            context.addTaskHook(sampler);
        }
        if (hookNames instanceof List<?> names) {
            for (Object name : names) {
                try {
                    Class<?> type = Class.forName(String.valueOf(name), true, loader);
                    context.addTaskHook((ITaskHook) type.getDeclaredConstructor().newInstance());
                } catch (ReflectiveOperationException | ClassCastException e) {
                    throw new IllegalArgumentException("Cannot create task hook '" + name + "' listed in "
                        + Config.TOPOLOGY_AUTO_TASK_HOOKS + ": " + e, e);
                }
            }
        }
    }

    static void emit(List<ITaskHook> hooks, List<Object> values, String streamId, int taskId, List<Integer> outTasks) {
        EmitInfo info = new EmitInfo(values, streamId, taskId, outTasks);
        for (ITaskHook hook : hooks) {
            hook.emit(info);
        }
    }

    /**
     * The emit hooks Storm calls for a message its task sends to an acker (Storm's {@code Task.sendUnanchored} on
     * {@code __ack_init}, {@code __ack_ack}, {@code __ack_fail}, {@code __ack_reset_timeout}): Microburst sends no such
     * message, but a hook sees the emit Storm's would, to the acker task Storm's fields grouping on the root id picks
     * (none if the topology has no acker tasks).
     */
    static void ackerEmit(TopologyPlan plan, List<ITaskHook> hooks, String streamId, List<Object> values, int taskId) {
        List<Integer> ackers = plan.systemComponentTasks().get(ACKER_COMPONENT);
        List<Integer> outTasks = new ArrayList<>(1);
        if (ackers != null && !ackers.isEmpty()) {
            outTasks.add(ackers.get(TupleUtils.chooseTaskIndex(List.of(values.get(0)), ackers.size())));
        }
        emit(hooks, values, streamId, taskId, outTasks);
    }
}
