package io.microburst.runtime;

import java.util.Arrays;
import java.util.List;
import io.microburst.plan.StreamPlan;
import io.microburst.plan.Subscription;
import io.microburst.routing.Grouper;

/**
 * Where one producer task's tuples on one stream go: the groupers of the stream's non-direct subscriptions, and for a
 * direct stream which tasks consume it. Confined to the producer task's thread.
 */
final class StreamRoute {
    final StreamPlan stream;
    final String streamId;
    final int index;
    final int fieldCount;
    final boolean direct;
    final Grouper[] groupers;
    final int[] inputIndexes;
    /** For a direct stream: consumer input index by task id, -1 where the task does not consume the stream. */
    final int[] directInputByTask;

    StreamRoute(StreamPlan stream, Grouper[] groupers, int[] inputIndexes, int maxTaskId) {
        this.stream = stream;
        this.streamId = stream.streamId();
        this.index = stream.index();
        this.fieldCount = stream.fields().size();
        this.direct = stream.isDirect();
        this.groupers = groupers;
        this.inputIndexes = inputIndexes;
        this.directInputByTask = new int[maxTaskId + 1];
        Arrays.fill(directInputByTask, -1);
        if (direct) {
            for (Subscription s : stream.subscriptions()) {
                for (int t : s.consumer().taskIds()) {
                    directInputByTask[t] = s.inputIndex();
                }
            }
        }
    }

    void checkValues(List<Object> values, TaskRunner producer) {
        if (values == null) {
            throw new IllegalArgumentException("Component '" + producer.componentId() + "' (task " + producer.taskId
                + ") emitted null instead of a list of values on stream '" + streamId + "'");
        }
        if (values.size() != fieldCount) {
            throw new IllegalArgumentException("Component '" + producer.componentId() + "' (task " + producer.taskId
                + ") emitted " + values.size() + " values on stream '" + streamId + "', which declares " + fieldCount
                + " fields " + stream.fields().toList());
        }
    }
}
