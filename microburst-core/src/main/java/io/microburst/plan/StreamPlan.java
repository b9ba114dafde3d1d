package io.microburst.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.storm.tuple.Fields;

/**
 * One output stream of one component: its schema and who subscribes to it. Immutable once the plan is built.
 *
 * <p>Threading: immutable after planning; any thread.
 */
public final class StreamPlan {
    private final String componentId;
    private final String streamId;
    private final Fields fields;
    private final boolean direct;
    private final int index;
    private final List<Subscription> subscriptions = new ArrayList<>();

    StreamPlan(String componentId, String streamId, Fields fields, boolean direct, int index) {
        this.componentId = componentId;
        this.streamId = streamId;
        this.fields = fields;
        this.direct = direct;
        this.index = index;
    }

    void addSubscription(Subscription subscription) {
        subscriptions.add(subscription);
    }

    public String componentId() {
        return componentId;
    }

    public String streamId() {
        return streamId;
    }

    public Fields fields() {
        return fields;
    }

    public boolean isDirect() {
        return direct;
    }

    /** Position of this stream among its component's output streams (sorted by stream id). */
    public int index() {
        return index;
    }

    public List<Subscription> subscriptions() {
        return Collections.unmodifiableList(subscriptions);
    }

    @Override
    public String toString() {
        return componentId + ":" + streamId;
    }
}
