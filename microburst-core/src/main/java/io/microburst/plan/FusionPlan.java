package io.microburst.plan;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.microburst.MicroburstConfig;
import org.apache.storm.generated.Grouping;
import org.apache.storm.utils.ObjectReader;

/**
 * Decides which bolts run inside their producer's executors (operator fusion): their tuples then arrive by a method
 * call on the producer's thread, with no queue, no copy and no wake-up. A bolt is fused into its producer when
 * <ul>
 *   <li>it has exactly one input, from a different component, and the two are not on a cycle;</li>
 *   <li>each of the two runs one task per executor;</li>
 *   <li>the edge is one-to-one: local-or-shuffle between equal task counts (each producer task feeds the consumer task
 *       it shares a thread with, which is what "local" means in one process), or any of shuffle, local-or-shuffle,
 *       none, fields, global and all from one task into one task;</li>
 *   <li>neither the topology nor the bolt's own configuration sets {@link MicroburstConfig#FUSION} to false.</li>
 * </ul>
 * Fusion changes threads, never semantics: every task still sees its methods called from one thread at a time, and
 * acking, ticks, metrics and error handling are those of an unfused task.
 */
public final class FusionPlan {
    private final Map<String, String> fusedInto;

    private FusionPlan(Map<String, String> fusedInto) {
        this.fusedInto = Collections.unmodifiableMap(fusedInto);
    }

    public static FusionPlan of(TopologyPlan plan) {
        Map<String, String> fused = new HashMap<>();
        if (!ObjectReader.getBoolean(plan.conf().get(MicroburstConfig.FUSION), true)) {
            return new FusionPlan(fused);
        }
        for (ComponentPlan c : plan.components().values()) {
            if (c.isSpout() || !ObjectReader.getBoolean(c.conf().get(MicroburstConfig.FUSION), true)) {
                continue;
            }
            List<Subscription> inputs = c.inputs();
            if (inputs.size() != 1) {
                continue;
            }
            Subscription in = inputs.get(0);
            ComponentPlan producer = plan.component(in.stream().componentId());
            if (producer == c || plan.onCycle(producer.id(), c.id())) {
                continue;
            }
            if (producer.executors() != producer.taskIds().size() || c.executors() != c.taskIds().size()) {
                continue;
            }
            if (oneToOne(in.grouping(), producer.taskIds().size(), c.taskIds().size())) {
                fused.put(c.id(), producer.id());
            }
        }
        return new FusionPlan(fused);
    }

    private static boolean oneToOne(Grouping g, int producerTasks, int consumerTasks) {
        switch (g.getSetField()) {
            case LOCAL_OR_SHUFFLE:
                return producerTasks == consumerTasks;
            case SHUFFLE:
            case NONE:
            case FIELDS:
            case ALL:
                return producerTasks == 1 && consumerTasks == 1;
            default:
                return false;
        }
    }

    /** The component whose executors run this component's tasks, or null if it has executors of its own. */
    public String fusedInto(String componentId) {
        return fusedInto.get(componentId);
    }

    /** True when at least one component runs fused into another. */
    public boolean any() {
        return !fusedInto.isEmpty();
    }

    public boolean isFused(String componentId) {
        return fusedInto.containsKey(componentId);
    }

    /**
     * How many fused edges lead to {@code componentId} from the component whose executors run it: 0 for a component with
     * executors of its own, 1 for one fused into such a component, and so on.
     */
    public int depth(String componentId) {
        int depth = 0;
        for (String c = fusedInto.get(componentId); c != null; c = fusedInto.get(c)) {
            depth++;
        }
        return depth;
    }

    /** True when {@code componentId} is fused, directly or through other fused components, into {@code head}. */
    public boolean chainsInto(String componentId, String head) {
        String c = componentId;
        String p;
        while ((p = fusedInto.get(c)) != null) {
            if (p.equals(head)) {
                return true;
            }
            c = p;
        }
        return false;
    }
}
