package io.microburst.runtime.topology;

import java.util.Map;
import io.microburst.config.ConfigKeys;
import org.apache.storm.Config;
import org.apache.storm.utils.ObjectReader;

/** The size of an executor's receive queue, from a topology's configuration. Pure function; any thread. */
final class ReceiveQueueSize {
    /** {@code topology.executor.receive.buffer.size} in storm-client's defaults.yaml. */
    static final int STORM_DEFAULT_RECEIVE_BUFFER_SIZE = 32768;

    private ReceiveQueueSize() {
    }

    /**
     * Tuples an executor's receive queue holds: {@link ConfigKeys#EXECUTOR_QUEUE_SIZE} when set; else Storm's
     * {@code topology.executor.receive.buffer.size} (it means the same thing) when it is not Storm's own default;
     * else {@link ConfigKeys#DEFAULT_EXECUTOR_QUEUE_SIZE}, since Storm's default was measured to hold more than
     * batches need (docs/performance/2026-11-23-queues-and-parking.md). A value from a storm.yaml counts as set.
     */
    static int of(Map<String, Object> conf) {
        Object own = conf.get(ConfigKeys.EXECUTOR_QUEUE_SIZE);
        if (own != null) {
            return ObjectReader.getInt(own);
        }
        Integer storms = ObjectReader.getInt(conf.get(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE), null);
        if (storms != null && storms != STORM_DEFAULT_RECEIVE_BUFFER_SIZE) {
            return storms;
        }
        return ConfigKeys.DEFAULT_EXECUTOR_QUEUE_SIZE;
    }
}
