package io.microburst.runtime.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import io.microburst.config.ConfigKeys;
import org.apache.storm.Config;
import org.junit.jupiter.api.Test;

/** Storm's producer batch size is followed where a topology sets it to other than Storm's default; ours wins. */
class ProducerBatchSizeTest {
    private static final int QUEUE = 4096;

    private static Map<String, Object> conf(Object... pairs) {
        Map<String, Object> conf = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            conf.put((String) pairs[i], pairs[i + 1]);
        }
        return conf;
    }

    @Test
    void unsetOrStormsDefaultGivesOurs() {
        assertEquals(ProducerBatchSize.DEFAULT, ProducerBatchSize.of(conf(), QUEUE));
        assertEquals(ProducerBatchSize.DEFAULT, ProducerBatchSize.of(conf(Config.TOPOLOGY_PRODUCER_BATCH_SIZE, 1), QUEUE));
    }

    @Test
    void stormsSizeIsFollowedUpToHalfTheQueue() {
        assertEquals(100, ProducerBatchSize.of(conf(Config.TOPOLOGY_PRODUCER_BATCH_SIZE, 100), QUEUE));
        assertEquals(16, ProducerBatchSize.of(conf(Config.TOPOLOGY_PRODUCER_BATCH_SIZE, 16L), QUEUE));
        assertEquals(512, ProducerBatchSize.of(conf(Config.TOPOLOGY_PRODUCER_BATCH_SIZE, 1000), 1024));
        assertEquals(1000, ProducerBatchSize.of(conf(Config.TOPOLOGY_PRODUCER_BATCH_SIZE, 1000), 50_000));
    }

    @Test
    void oursWinsOverStorms() {
        assertEquals(1, ProducerBatchSize.of(conf(ConfigKeys.PRODUCER_BATCH_SIZE, 1, Config.TOPOLOGY_PRODUCER_BATCH_SIZE, 100),
            QUEUE));
        assertEquals(256, ProducerBatchSize.of(conf(ConfigKeys.PRODUCER_BATCH_SIZE, "256"), QUEUE));
    }
}
