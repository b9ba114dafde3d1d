package io.microburst.runtime.task;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The shallow size estimate behind microburst.tuple.max.bytes. */
class TupleSizeEstimateTest {
    @Test
    void countsArraysStringsBuffersAndCollectionsByTheirFirstElement() {
        assertEquals(10, StreamRoute.estimate(new byte[10]));
        assertEquals(3, StreamRoute.estimate("abc"));
        assertEquals(7, StreamRoute.estimate(ByteBuffer.allocate(7)));
        assertEquals(30, StreamRoute.estimate(List.of(new byte[10], new byte[10], new byte[10])));
        assertEquals(20, StreamRoute.estimate(Set.of(new byte[10], new byte[10])));
        assertEquals(2 * (3 + 5), StreamRoute.estimate(Map.of("abc", new byte[5], "def", new byte[5])));
        assertEquals(0, StreamRoute.estimate(42L));
        assertEquals(0, StreamRoute.estimate(null));
        assertEquals(0, StreamRoute.estimate(List.of()));
    }
}
