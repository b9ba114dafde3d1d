package io.microburst.runtime.topology;

import java.util.Map;
import io.microburst.config.ConfigKeys;
import org.apache.storm.Config;
import org.apache.storm.utils.ObjectReader;

/**
 * How many tuples a producer batches for one consumer before handing them over, from a topology's configuration. Pure
 * function; any thread.
 *
 * <p>{@link ConfigKeys#PRODUCER_BATCH_SIZE} when set; else Storm's {@code topology.producer.batch.size} when it is set
 * (by the topology or a storm.yaml) to something other than Storm's default, 1, since it means the same thing: the most
 * tuples an emit's batch holds, at most half the receive queue, as Storm allows; else {@link #DEFAULT}. Storm's 1 is not
 * followed: what it is for (no tuple waits for a batch to fill or for the flush timer) Microburst gives at any size, as a
 * part batch is handed over as soon as its producer runs out of work, and while its calls are slow at each emit.
 */
final class ProducerBatchSize {
    /** Microburst's own default. */
    static final int DEFAULT = 64;
    /** {@code topology.producer.batch.size} in storm-client's defaults.yaml. */
    static final int STORM_DEFAULT = 1;

    private ProducerBatchSize() {
    }

    /** The batch size for a topology whose executors' receive queues hold {@code queueSize} tuples. */
    static int of(Map<String, Object> conf, int queueSize) {
        Object own = conf.get(ConfigKeys.PRODUCER_BATCH_SIZE);
        if (own != null) {
            return ObjectReader.getInt(own);
        }
        Integer storms = ObjectReader.getInt(conf.get(Config.TOPOLOGY_PRODUCER_BATCH_SIZE), null);
        if (storms != null && storms != STORM_DEFAULT && storms > 0) {
            return Math.max(1, Math.min(storms, queueSize / 2));
        }
        return DEFAULT;
    }
}
