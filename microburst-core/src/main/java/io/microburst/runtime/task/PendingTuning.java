package io.microburst.runtime.task;

import java.util.Map;
import io.microburst.config.ConfigKeys;
import io.microburst.plan.ComponentPlan;
import io.microburst.reliability.MaxPendingTuner;
import org.apache.storm.Config;
import org.apache.storm.spout.CheckpointSpout;
import org.apache.storm.utils.ObjectReader;

/**
 * A spout task's max spout pending: Storm's {@code topology.max.spout.pending}, and, with
 * {@link ConfigKeys#MAX_SPOUT_PENDING_AUTOTUNE}, the tuner that moves it. The task keeps the bound in use in a field of
 * its own (read before every nextTuple). The spout's executor thread only.
 *
 * <p>Storm's checkpoint spout has one step (recovery, prepare, commit) in flight at a time, and a nextTuple called
 * while one is sleeps a tenth of the checkpoint interval on the spout's thread, holding back the ack that ends the
 * step and every other task of that thread. Its bound is 1 whatever the topology says: it is never called with a
 * step in flight, so each step follows the last one's ack at once; it never had more than one tree to emit.
 */
final class PendingTuning {
    private final MaxPendingTuner tuner;

    private PendingTuning(MaxPendingTuner tuner) {
        this.tuner = tuner;
    }

    /** The configured bound; 0 for none; 1 for Storm's checkpoint spout. */
    static int configured(ComponentPlan component) {
        if (CheckpointSpout.CHECKPOINT_COMPONENT_ID.equals(component.id())) {
            return 1;
        }
        Object max = component.conf().get(Config.TOPOLOGY_MAX_SPOUT_PENDING);
        return max == null ? 0 : ((Number) max).intValue();
    }

    /**
     * The tuning of a component whose configuration asks for it, starting from {@code configured}; else null (and
     * always for the checkpoint spout).
     */
    static PendingTuning of(ComponentPlan component, int configured) {
        if (CheckpointSpout.CHECKPOINT_COMPONENT_ID.equals(component.id())
            || !ObjectReader.getBoolean(component.conf().get(ConfigKeys.MAX_SPOUT_PENDING_AUTOTUNE), false)) {
            return null;
        }
        return new PendingTuning(new MaxPendingTuner(configured > 0 ? configured : 1000));
    }

    /** The bound in use now. */
    int max() {
        return (int) Math.min(Integer.MAX_VALUE, tuner.get());
    }

    /** One tuning step from the trees acked since the last; returns the new bound. */
    int step(long ackedSinceLast) {
        tuner.autoTune(ackedSinceLast);
        return max();
    }
}
