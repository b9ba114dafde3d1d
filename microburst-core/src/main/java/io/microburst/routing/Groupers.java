package io.microburst.routing;

import java.util.List;
import io.microburst.plan.Subscription;
import io.microburst.plan.UserObjects;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.grouping.CustomStreamGrouping;
import org.apache.storm.task.WorkerTopologyContext;

/**
 * Builds the grouper of one subscription for one producer task.
 *
 * <p>Threading: stateless; any thread.
 */
public final class Groupers {
    private Groupers() {
    }

    /**
     * @return the grouper, or null for a direct subscription (the producer names the task at each emit)
     */
    /**
     * @param localTargets the consumer tasks that share the producer task's thread; local-or-shuffle prefers them,
     *     as Storm's prefers tasks in the producer's worker
     */
    public static Grouper create(Subscription subscription, int producerTask, List<Integer> localTargets,
                                 WorkerTopologyContext context, ClassLoader loader) {
        Grouping g = subscription.grouping();
        List<Integer> targets = subscription.consumer().taskIds();
        String where = subscription.stream() + " -> " + subscription.consumer().id();
        switch (g.getSetField()) {
            case FIELDS:
                if (g.get_fields().isEmpty()) {
                    return FixedGrouper.global(targets);
                }
                int[] indexes = new int[g.get_fields().size()];
                for (int i = 0; i < indexes.length; i++) {
                    indexes[i] = subscription.stream().fields().fieldIndex(g.get_fields().get(i));
                }
                return new FieldsGrouper(targets, indexes);
            case LOCAL_OR_SHUFFLE:
                return new ShuffleGrouper(localTargets.isEmpty() ? targets : localTargets);
            case SHUFFLE:
            case NONE:
                return new ShuffleGrouper(targets);
            case ALL:
                return FixedGrouper.all(targets);
            case DIRECT:
                return null;
            case CUSTOM_SERIALIZED:
                return custom((CustomStreamGrouping) UserObjects.deserialize(g.get_custom_serialized(), loader,
                    "custom grouping on " + where), subscription, producerTask, context, where);
            case CUSTOM_OBJECT:
                return custom((CustomStreamGrouping) UserObjects.instantiate(g.get_custom_object(), loader,
                    "custom grouping on " + where), subscription, producerTask, context, where);
            default:
                throw new IllegalArgumentException("Unsupported grouping " + g.getSetField() + " on " + where);
        }
    }

    private static Grouper custom(CustomStreamGrouping grouping, Subscription subscription, int producerTask,
                                  WorkerTopologyContext context, String where) {
        GlobalStreamId stream = new GlobalStreamId(subscription.stream().componentId(), subscription.stream().streamId());
        List<Integer> targets = subscription.consumer().taskIds();
        grouping.prepare(context, stream, targets);
        return new CustomGrouper(grouping, producerTask, targets, where);
    }
}
