package io.microburst.runtime.task;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import io.microburst.config.ConfigKeys;
import io.microburst.plan.StreamPlan;
import io.microburst.plan.TopologyPlan;
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
    /**
     * The links of each grouper's subscription, by consumer task id less {@link #firstTask}; each array and link is
     * made on first use, so that a topology with P producer and C consumer tasks starts with none of the P times C
     * links an all-to-all grouping may come to use.
     */
    private final Link[][] links;
    private final int[] firstTask;
    private final List<Subscription> subscriptions;
    private final TaskRunner producer;
    /**
     * For a direct stream: the link to each consumer task, by task id; null where the task does not consume it (and
     * an empty array when the stream is not direct).
     */
    final Link[] directLinks;
    /**
     * The link of every grouped emit, when the stream has one subscription whose grouper always chooses the same task
     * (one consumer task, or a local-or-shuffle to the one task fused with the producer); null otherwise. An emit then
     * goes straight to it, without the grouper's call and the loads of the task list it returns.
     */
    final Link only;
    /** The largest tuple an emit accepts, in estimated bytes ({@code microburst.tuple.max.bytes}); 0: no limit. */
    final long maxBytes;

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
        this.subscriptions = subscriptions;
        this.producer = producer;
        this.links = new Link[groupers.length][];
        this.firstTask = new int[groupers.length];
        int onlyTask = !direct && groupers.length == 1 ? groupers[0].onlyTask() : -1;
        this.only = onlyTask >= 0 ? link(0, onlyTask) : null;
        if (direct) {
            this.directLinks = new Link[producer.host.plan().maxTaskId() + 1];
            for (Subscription s : stream.subscriptions()) {
                for (int t : s.consumer().taskIds()) {
                    directLinks[t] = newLink(s, t);
                }
            }
        } else {
            this.directLinks = new Link[0];
        }
        // the limit protects queues: a stream nobody subscribes to queues nothing, and its emits skip the estimate
        this.maxBytes = stream.subscriptions().isEmpty() ? 0
            : maxBytes(producer.component.conf().get(ConfigKeys.TUPLE_MAX_BYTES));
    }

    /** The link to consumer task {@code task} of grouper {@code g}'s subscription. The producer's thread. */
    Link link(int g, int task) {
        Link[] l = links[g];
        if (l != null) {
            int i = task - firstTask[g];
            if (i >= 0 && i < l.length && l[i] != null) {
                return l[i];
            }
        }
        return firstLink(g, task);
    }

    private Link firstLink(int g, int task) {
        Subscription s = subscriptions.get(g);
        Link[] l = links[g];
        if (l == null) {
            int first = Integer.MAX_VALUE;
            int last = Integer.MIN_VALUE;
            for (int t : s.consumer().taskIds()) {
                first = Math.min(first, t);
                last = Math.max(last, t);
            }
            firstTask[g] = first;
            l = new Link[last - first + 1];
            links[g] = l;
        }
        int i = task - firstTask[g];
        if (i < 0 || i >= l.length) { // a component's task ids are one range
            throw new IllegalArgumentException("Component '" + producer.componentId() + "' (task " + producer.taskId
                + ") routed a tuple on stream '" + streamId + "' to task " + task + ", which is not a task of '"
                + s.consumer().id() + "'");
        }
        Link k = newLink(s, task);
        l[i] = k;
        return k;
    }

    private Link newLink(Subscription s, int task) {
        return new Link(producer.host.tupleContext(), producer.componentId(), producer.taskId, streamId,
            producer.host.bolt(task), s.inputIndex());
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
        if (maxBytes > 0) {
            checkSize(values, producer);
        }
    }

    static long maxBytes(Object configured) {
        if (configured instanceof Number n) {
            return Math.max(0, n.longValue());
        }
        return Runtime.getRuntime().maxMemory() / ConfigKeys.DEFAULT_TUPLE_MAX_HEAP_FRACTION;
    }

    /**
     * Refuses a tuple whose estimated size passes {@link #maxBytes}: queues hold a number of tuples, not of bytes, so
     * a few huge ones would fill the heap before backpressure held their producer. The estimate is shallow (see
     * {@link #estimate}), a few type checks per field for the usual tuple.
     */
    private void checkSize(List<Object> values, TaskRunner producer) {
        long total = 0;
        for (int i = 0; i < fieldCount; i++) {
            long size = estimate(values.get(i));
            total += size;
            if (total > maxBytes) {
                throw new IllegalArgumentException("Component '" + producer.componentId() + "' (task "
                    + producer.taskId + ") emitted a tuple of about " + total + " bytes or more on stream '" + streamId
                    + "' (field '" + stream.fields().get(i) + "' alone about " + size + " bytes), over the limit of "
                    + maxBytes + " bytes (" + ConfigKeys.TUPLE_MAX_BYTES + "; by default the maximum heap / "
                    + ConfigKeys.DEFAULT_TUPLE_MAX_HEAP_FRACTION + "): queues are bounded in "
                    + "tuples, so tuples this large could fill the heap; send a reference to the data instead, or raise "
                    + "the limit");
            }
        }
    }

    /**
     * About how many bytes a value holds, shallowly: a byte array, buffer or string its length, a collection or map its
     * size times its first element's estimate; anything else 0. Strings and numbers, most values, are told apart by
     * class checks before any interface check: a value failing {@code instanceof Collection} has its class's
     * interfaces searched one by one, every time (a JFR profile of WordCount found 6-7% of the samples here).
     */
    static long estimate(Object v) {
        if (v instanceof String s) {
            return s.length();
        }
        if (v instanceof byte[] b) {
            return b.length;
        }
        if (v == null || v instanceof Number || v instanceof Boolean || v instanceof Character) {
            return 0;
        }
        if (v instanceof Collection<?> c) {
            return c.isEmpty() ? 0 : c.size() * element(c instanceof List<?> l ? l.get(0) : c.iterator().next());
        }
        if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                return 0;
            }
            Map.Entry<?, ?> e = m.entrySet().iterator().next();
            return m.size() * (element(e.getKey()) + element(e.getValue()));
        }
        if (v instanceof ByteBuffer b) {
            return b.remaining();
        }
        return 0;
    }

    private static long element(Object v) {
        if (v instanceof byte[] b) {
            return b.length;
        }
        if (v instanceof String s) {
            return s.length();
        }
        if (v instanceof ByteBuffer b) {
            return b.remaining();
        }
        return 16;
    }

    /** Why {@code directTask} cannot take a direct emit on this stream, and which tasks can. Only for the error. */
    String describeDirectTarget(TopologyPlan plan, int directTask) {
        String owner = plan.taskToComponent().get(directTask);
        if (owner == null) {
            for (Map.Entry<String, List<Integer>> e : plan.systemComponentTasks().entrySet()) {
                if (e.getValue().contains(directTask)) {
                    owner = e.getKey();
                }
            }
        }
        List<Integer> consumers = new ArrayList<>();
        for (Subscription s : stream.subscriptions()) {
            consumers.addAll(s.consumer().taskIds());
        }
        String which = owner == null ? "does not exist"
            : "(of component '" + owner + "') does not consume the stream";
        return which + "; the tasks consuming it are " + consumers;
    }
}
