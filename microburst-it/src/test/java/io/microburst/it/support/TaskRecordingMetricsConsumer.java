package io.microburst.it.support;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.storm.metric.api.IMetricsConsumer;
import org.apache.storm.task.IErrorReporter;
import org.apache.storm.task.TopologyContext;

/**
 * A metrics consumer that records which of its component's tasks it is ({@link Prepared}, once per instance) and, for
 * every data point it receives, which task received it ({@link Delivered}). The registration argument carries the scope.
 */
public class TaskRecordingMetricsConsumer implements IMetricsConsumer {
    private final String instance = UUID.randomUUID().toString();
    private String scope;
    private int taskId;

    @Override
    public void prepare(Map<String, Object> topoConf, Object registrationArgument, TopologyContext context,
                        IErrorReporter errorReporter) {
        this.scope = String.valueOf(registrationArgument);
        this.taskId = context.getThisTaskId();
        String component = context.getThisComponentId();
        Recorder.record(scope, new Prepared(component, taskId, List.copyOf(context.getComponentTasks(component)),
            context.getThisTaskIndex(), instance));
    }

    @Override
    public void handleDataPoints(TaskInfo taskInfo, Collection<DataPoint> dataPoints) {
        for (DataPoint point : dataPoints) {
            Recorder.record(scope, new Delivered(taskId, taskInfo.srcComponentId, taskInfo.srcTaskId, point.name,
                point.value));
        }
    }

    @Override
    public void cleanup() {
    }

    /** One consumer task as its context describes it; {@code instance} tells instances apart. */
    public record Prepared(String component, int taskId, List<Integer> componentTasks, int taskIndex, String instance) {
    }

    /** One data point as the consumer task {@code consumerTaskId} received it. */
    public record Delivered(int consumerTaskId, String component, int taskId, String name, Object value) {
    }
}
