package io.microburst.it.support;

import java.util.Collection;
import java.util.Map;
import org.apache.storm.metric.api.IMetricsConsumer;
import org.apache.storm.task.IErrorReporter;
import org.apache.storm.task.TopologyContext;

/**
 * A metrics consumer (registered with {@code Config.registerMetricsConsumer(RecordingMetricsConsumer.class, scope, 1)}): Storm
 * instantiates it by class name, so the registration argument carries the scope. Records every data point as a {@link MetricPoint}.
 */
public class RecordingMetricsConsumer implements IMetricsConsumer {
    private String scope;

    @Override
    public void prepare(Map<String, Object> topoConf, Object registrationArgument, TopologyContext context, IErrorReporter errorReporter) {
        this.scope = String.valueOf(registrationArgument);
    }

    @Override
    public void handleDataPoints(TaskInfo taskInfo, Collection<DataPoint> dataPoints) {
        for (DataPoint point : dataPoints) {
            Recorder.record(scope, new MetricPoint(taskInfo.srcComponentId, taskInfo.srcTaskId, taskInfo.updateIntervalSecs,
                taskInfo.timestamp, point.name, point.value));
        }
    }

    @Override
    public void cleanup() {
    }

    /** One data point as a consumer received it. */
    public record MetricPoint(String component, int taskId, int intervalSecs, long timestampSecs, String name, Object value) {
    }
}
