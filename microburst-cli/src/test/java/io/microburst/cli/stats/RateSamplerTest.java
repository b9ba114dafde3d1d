package io.microburst.cli.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RateSamplerTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void firstSampleIsMeasuredFromTheStartAndLaterOnesFromThePreviousSample() {
        RateSampler sampler = new RateSampler(5 * SECOND);

        List<ComponentRate> first = sampler.sample(counters(100, 40), 7 * SECOND);
        List<ComponentRate> second = sampler.sample(counters(400, 40), 7 * SECOND + SECOND / 2);

        assertEquals(50.0, first.get(0).emittedPerSecond(), 1e-9);
        assertEquals(20.0, first.get(0).executedPerSecond(), 1e-9);
        assertEquals(600.0, second.get(0).emittedPerSecond(), 1e-9);
        assertEquals(0.0, second.get(0).executedPerSecond(), 1e-9);
        assertEquals(400, second.get(0).emitted());
        assertEquals(40, second.get(0).executed());
    }

    @Test
    void countersThatGoBackwardsGiveZeroNotNegativeRates() {
        RateSampler sampler = new RateSampler(0);
        sampler.sample(counters(1000, 1000), SECOND);

        ComponentRate rate = sampler.sample(counters(10, 10), 2 * SECOND).get(0);

        assertEquals(0.0, rate.emittedPerSecond());
        assertEquals(0.0, rate.executedPerSecond());
    }

    @Test
    void keepsTheOrderOfTheCounters() {
        Map<String, ComponentCounters> counters = new LinkedHashMap<>();
        counters.put("b", new ComponentCounters("b", ComponentKind.SPOUT, 1, 1, 0));
        counters.put("a", new ComponentCounters("a", ComponentKind.BOLT, 1, 1, 1));

        List<ComponentRate> rates = new RateSampler(0).sample(counters, SECOND);

        assertEquals(List.of("b", "a"), rates.stream().map(ComponentRate::componentId).toList());
    }

    private static Map<String, ComponentCounters> counters(long emitted, long executed) {
        return Map.of("split", new ComponentCounters("split", ComponentKind.BOLT, 2, emitted, executed));
    }
}
