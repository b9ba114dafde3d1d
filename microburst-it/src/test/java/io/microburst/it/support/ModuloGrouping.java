package io.microburst.it.support;

import java.util.ArrayList;
import java.util.List;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.grouping.CustomStreamGrouping;
import org.apache.storm.task.WorkerTopologyContext;

/**
 * A custom grouping with a checkable rule: the tuple whose integer field at {@code index} is n goes to target task n modulo the
 * number of targets (targets in the order prepare received them). Records each prepare as a {@link GroupingPrepared}.
 */
public class ModuloGrouping implements CustomStreamGrouping {
    private final String scope;
    private final int index;
    private List<Integer> targets;

    public ModuloGrouping(String scope, int index) {
        this.scope = scope;
        this.index = index;
    }

    @Override
    public void prepare(WorkerTopologyContext context, GlobalStreamId stream, List<Integer> targetTasks) {
        this.targets = new ArrayList<>(targetTasks);
        Recorder.record(scope, new GroupingPrepared(stream.get_componentId(), stream.get_streamId(), List.copyOf(targetTasks),
            context != null, context == null ? List.of() : context.getComponentTasks(stream.get_componentId())));
    }

    @Override
    public List<Integer> chooseTasks(int taskId, List<Object> values) {
        int n = ((Number) values.get(index)).intValue();
        return List.of(targets.get(Math.floorMod(n, targets.size())));
    }

    /** What a custom grouping was prepared with. */
    public record GroupingPrepared(String sourceComponent, String stream, List<Integer> targetTasks, boolean hadContext,
                                   List<Integer> sourceTasksFromContext) {
    }
}
