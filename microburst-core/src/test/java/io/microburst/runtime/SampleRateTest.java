package io.microburst.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Execute and process latencies are sampled at Storm's topology.stats.sample.rate, turned into a period. */
class SampleRateTest {
    @Test
    void rateBecomesAPeriod() {
        assertEquals(20, TaskRunner.sampleEvery(0.05));
        assertEquals(2000, TaskRunner.sampleEvery(0.0005));
        assertEquals(1, TaskRunner.sampleEvery(1.0));
        assertEquals(1, TaskRunner.sampleEvery(5));
        assertEquals(3, TaskRunner.sampleEvery(0.3));
    }

    @Test
    void missingRateIsStormsDefault() {
        assertEquals(20, TaskRunner.sampleEvery((Object) null));
        assertEquals(20, TaskRunner.sampleEvery("not a number"));
    }

    @Test
    void zeroOrNegativeRateNeverSamples() {
        assertEquals(Integer.MAX_VALUE, TaskRunner.sampleEvery(0.0));
        assertEquals(Integer.MAX_VALUE, TaskRunner.sampleEvery(-1));
        assertEquals(Integer.MAX_VALUE, TaskRunner.sampleEvery(Double.NaN));
    }
}
