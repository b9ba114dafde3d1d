package io.microburst.it.upgrade;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.state.StateFactory;

/**
 * What the counting bolt's committed state holds once the topology is gone, read through Storm's {@code StateFactory}
 * from the embedded RocksDB store, against what the producer wrote: records lost (never counted), records counted more
 * than once, keys whose count is below their input count. Used by the measurement's thread only.
 */
final class StateLedger {
    /** Task ids looked at for the bolt's namespaces ({@code count-<task>}); the topology has fewer tasks. */
    private static final int TASK_IDS = 64;

    final long produced;
    final long lost;
    final long countedTwice;
    final long keysBelow;
    final long keysAbove;
    final int namespaces;

    private StateLedger(long produced, long lost, long countedTwice, long keysBelow, long keysAbove, int namespaces) {
        this.produced = produced;
        this.lost = lost;
        this.countedTwice = countedTwice;
        this.keysBelow = keysBelow;
        this.keysAbove = keysAbove;
        this.namespaces = namespaces;
    }

    static StateLedger read(String stateDirectory, SteadyProducer producer, long sent) {
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_STATE_PROVIDER, "io.microburst.state.RocksDbKeyValueStateProvider");
        conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"directory\": \""
            + stateDirectory.replace("\\", "\\\\") + "\"}");
        Map<String, Long> state = new HashMap<>();
        int namespaces = 0;
        for (int task = 1; task <= TASK_IDS; task++) {
            @SuppressWarnings("unchecked")
            KeyValueState<String, Long> kv = (KeyValueState<String, Long>) StateFactory.getState(
                KafkaUpgradeSource.COUNTER + "-" + task, conf, null);
            int before = state.size();
            kv.forEach(e -> state.merge(e.getKey(), e.getValue(), Long::sum));
            if (state.size() > before) {
                namespaces++;
            }
        }
        Map<String, Long> input = new HashMap<>();
        long produced = 0;
        long lost = 0;
        long twice = 0;
        for (int n = 0; n < sent; n++) {
            if (producer.partitionOf.get(n) == 0) {
                continue; // not acknowledged by the broker: not produced
            }
            produced++;
            input.merge(producer.key(n), 1L, Long::sum);
            long counted = state.getOrDefault("r" + n, 0L);
            if (counted == 0) {
                lost++;
            } else if (counted > 1) {
                twice++;
            }
        }
        long below = 0;
        long above = 0;
        for (Map.Entry<String, Long> key : input.entrySet()) {
            long counted = state.getOrDefault("k" + key.getKey(), 0L);
            if (counted < key.getValue()) {
                below++;
            } else if (counted > key.getValue()) {
                above++;
            }
        }
        return new StateLedger(produced, lost, twice, below, above, namespaces);
    }
}
