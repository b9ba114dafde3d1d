package io.microburst.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.apache.storm.Config;
import org.junit.jupiter.api.Test;

class RocksDbStateConfigTest {
    @Test
    void defaultsWithoutConfiguration() {
        assertEquals(Path.of(RocksDbStateConfig.DEFAULT_DIRECTORY).toAbsolutePath(),
                RocksDbStateConfig.from(Map.of()).directory());
    }

    @Test
    void readsTheDirectory() {
        RocksDbStateConfig config = RocksDbStateConfig.from(Map.of(Config.TOPOLOGY_STATE_PROVIDER_CONFIG,
                "{\"directory\":\"/var/lib/app/state\", \"keyClass\":\"java.lang.String\"}"));
        assertEquals(Path.of("/var/lib/app/state"), config.directory());
        assertEquals("java.lang.String", config.keyClass());
    }

    @Test
    void refusesUnknownKeysByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RocksDbStateConfig.from(
                Map.of(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"dierctory\":\"/tmp/x\"}")));
        assertTrue(e.getMessage().contains("'dierctory'"), e.getMessage());
    }

    @Test
    void refusesMalformedJson() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RocksDbStateConfig.from(
                Map.of(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{directory: ")));
        assertTrue(e.getMessage().contains(Config.TOPOLOGY_STATE_PROVIDER_CONFIG), e.getMessage());
    }
}
