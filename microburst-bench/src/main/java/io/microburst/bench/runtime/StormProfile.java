package io.microburst.bench.runtime;

import java.util.Map;
import org.apache.storm.Config;

/**
 * Storm's own tuned settings, applied on top of a workload's configuration. Stateless.
 *
 * <p>Two profiles, as Storm's storm-perf suite uses them: for throughput, large producer batches and receive queues, no
 * load-aware routing, sparse stats sampling and max spout pending 1000; for latency, the busy-wait profile only (a bolt
 * that parks for 0 microseconds), because a 1000-tuple producer batch at one tuple per millisecond would wait for Storm's
 * flush timer and measure the timer instead of the runtime.
 */
public final class StormProfile {
    private static final String PARK_STRATEGY = "org.apache.storm.policy.WaitStrategyPark";

    private StormProfile() {
    }

    /** Puts the tuned settings for a latency workload or a throughput workload into {@code conf}. */
    public static void applyTuned(Map<String, Object> conf, boolean latencySensitive) {
        if (latencySensitive) {
            conf.put(Config.TOPOLOGY_BOLT_WAIT_STRATEGY, PARK_STRATEGY);
            conf.put(Config.TOPOLOGY_BOLT_WAIT_PARK_MICROSEC, 0);
            return;
        }
        conf.put(Config.TOPOLOGY_PRODUCER_BATCH_SIZE, 1000);
        conf.put(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, 50_000);
        conf.put(Config.TOPOLOGY_DISABLE_LOADAWARE_MESSAGING, true);
        conf.put(Config.TOPOLOGY_STATS_SAMPLE_RATE, 0.0005);
        conf.put(Config.TOPOLOGY_SPOUT_RECVQ_SKIPS, 8);
        conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 1000);
    }
}
