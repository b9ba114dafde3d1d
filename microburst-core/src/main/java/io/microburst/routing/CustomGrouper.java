package io.microburst.routing;

import java.util.List;
import org.apache.storm.grouping.CustomStreamGrouping;

/**
 * A user's {@link CustomStreamGrouping} (Storm's partial key grouping arrives this way too). The instance is prepared
 * once per producer task, as in Storm; its answers are checked so that a wrong task id fails loudly at the emit.
 *
 * <p>Threading: one instance per producer task and subscription, called by that task's emits (its executor thread, or
 * a thread of the user's own through the collector), one at a time.
 */
public final class CustomGrouper implements Grouper {
    private final CustomStreamGrouping grouping;
    private final int producerTask;
    private final String description;
    private final boolean[] isTarget;

    public CustomGrouper(CustomStreamGrouping grouping, int producerTask, List<Integer> targets, String description) {
        this.grouping = grouping;
        this.producerTask = producerTask;
        this.description = description;
        int max = 0;
        for (int t : targets) {
            max = Math.max(max, t);
        }
        this.isTarget = new boolean[max + 1];
        for (int t : targets) {
            isTarget[t] = true;
        }
    }

    @Override
    public List<Integer> chooseTasks(List<Object> values) {
        List<Integer> chosen = grouping.chooseTasks(producerTask, values);
        if (chosen == null) {
            throw new IllegalStateException("Custom grouping " + grouping.getClass().getName() + " on " + description
                + " returned null");
        }
        for (int i = 0, n = chosen.size(); i < n; i++) {
            Integer t = chosen.get(i);
            if (t == null || t < 0 || t >= isTarget.length || !isTarget[t]) {
                throw new IllegalStateException("Custom grouping " + grouping.getClass().getName() + " on " + description
                    + " chose task " + t + ", which does not consume that stream");
            }
        }
        return chosen;
    }
}
