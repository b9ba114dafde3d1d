package io.microburst.cluster;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import org.apache.storm.generated.StormTopology;
import org.junit.jupiter.api.Test;

/** What submitTopology(String, Map, Object) accepts without storm-server on the class path. */
class StormServerTypesTest {
    @Test
    void aStormTopologyOrNullPassesAsItIs() {
        StormTopology topology = new StormTopology(new HashMap<>(), new HashMap<>(), new HashMap<>());
        assertSame(topology, StormServerTypes.topologyOf(topology));
        assertNull(StormServerTypes.topologyOf(null));
    }

    @Test
    void anythingElseIsRefusedByItsType() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> StormServerTypes.topologyOf("not a topology"));
        assertTrue(refused.getMessage().startsWith("Cannot submit a java.lang.String"), refused.getMessage());
    }
}
