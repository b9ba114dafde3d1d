package io.microburst.runtime;

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
    /** The links of each grouper's subscription, by consumer task id (null where the task does not consume it). */
    final Link[][] links;
    /** For a direct stream: the link to each consumer task, by task id; null where the task does not consume it. */
    final Link[] directLinks;
    /**
     * The link of every grouped emit, when the stream has one subscription whose grouper always chooses the same task
     * (one consumer task, or a local-or-shuffle to the one task fused with the producer); null otherwise. An emit then
     * goes straight to it, without the grouper's call and the loads of the task list it returns.
     */
    final Link only;

    /**
     * @param subscriptions the subscription of each grouper, in the same order
     */
    StreamRoute(StreamPlan stream, Grouper[] groupers, List<Subscription> subscriptions, TaskRunner producer) {
        this.stream = stream;
        this.streamId = stream.streamId();
        this.index = stream.index();
        this.fieldCount = stream.fields().size();
        this.direct = stream.isDirect();
        this.groupers = groupers;
        int maxTaskId = producer.host.plan().taskCount();
        this.links = new Link[groupers.length][];
        for (int g = 0; g < groupers.length; g++) {
            links[g] = linksTo(subscriptions.get(g), producer, maxTaskId);
        }
        int onlyTask = !direct && groupers.length == 1 ? groupers[0].onlyTask() : -1;
        this.only = onlyTask >= 0 ? links[0][onlyTask] : null;
        this.directLinks = new Link[maxTaskId + 1];
        if (direct) {
            for (Subscription s : stream.subscriptions()) {
                Link[] l = linksTo(s, producer, maxTaskId);
                for (int t : s.consumer().taskIds()) {
                    directLinks[t] = l[t];
                }
            }
        }
    }

    private Link[] linksTo(Subscription s, TaskRunner producer, int maxTaskId) {
        Link[] l = new Link[maxTaskId + 1];
        for (int t : s.consumer().taskIds()) {
            l[t] = new Link(producer.host.tupleContext(), producer.componentId(), producer.taskId, streamId,
                producer.host.bolt(t), s.inputIndex());
        }
        return l;
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
