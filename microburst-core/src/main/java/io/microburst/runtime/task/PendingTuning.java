package io.microburst.runtime.task;

import java.util.Map;
import io.microburst.config.ConfigKeys;
import io.microburst.reliability.MaxPendingTuner;
import org.apache.storm.Config;
import org.apache.storm.utils.ObjectReader;

/**
 * A spout task's max spout pending: Storm's {@code topology.max.spout.pending}, and, with
 * {@link ConfigKeys#MAX_SPOUT_PENDING_AUTOTUNE}, the tuner that moves it. The task keeps the bound in use in a field of
 * its own (read before every nextTuple). The spout's executor thread only.
 */
final class PendingTuning {
    private final MaxPendingTuner tuner;

    private PendingTuning(MaxPendingTuner tuner) {
        this.tuner = tuner;
    }

    /** The configured bound; 0 for none. */
    static int configured(Map<String, Object> conf) {
        Object max = conf.get(Config.TOPOLOGY_MAX_SPOUT_PENDING);
        return max == null ? 0 : ((Number) max).intValue();
    }

    /** The tuning of a component whose configuration asks for it, starting from {@code configured}; else null. */
    static PendingTuning of(Map<String, Object> conf, int configured) {
        if (!ObjectReader.getBoolean(conf.get(ConfigKeys.MAX_SPOUT_PENDING_AUTOTUNE), false)) {
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
