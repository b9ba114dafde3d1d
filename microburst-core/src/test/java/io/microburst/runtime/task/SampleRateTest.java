package io.microburst.runtime.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Execute and process latencies are sampled at Storm's topology.stats.sample.rate, turned into a period. */
class SampleRateTest {
    @Test
    void rateBecomesAPeriod() {
        assertEquals(20, Sampling.sampleEvery(0.05));
        assertEquals(2000, Sampling.sampleEvery(0.0005));
        assertEquals(1, Sampling.sampleEvery(1.0));
        assertEquals(1, Sampling.sampleEvery(5));
        assertEquals(3, Sampling.sampleEvery(0.3));
    }

    @Test
    void missingRateIsStormsDefault() {
        assertEquals(20, Sampling.sampleEvery((Object) null));
        assertEquals(20, Sampling.sampleEvery("not a number"));
    }

    @Test
    void zeroOrNegativeRateNeverSamples() {
        assertEquals(Integer.MAX_VALUE, Sampling.sampleEvery(0.0));
        assertEquals(Integer.MAX_VALUE, Sampling.sampleEvery(-1));
        assertEquals(Integer.MAX_VALUE, Sampling.sampleEvery(Double.NaN));
    }

    @Test
    void samplesThatComeFastStretchThePeriodUpToALimit() {
        long fast = Sampling.MIN_SAMPLE_GAP_NANOS - 1;
        int period = 20;
        for (int i = 0; i < 5; i++) {
            period = Sampling.adaptPeriod(period, 20, fast);
        }
        assertEquals(20 * 32, period);
        for (int i = 0; i < 10; i++) {
            period = Sampling.adaptPeriod(period, 20, fast);
        }
        assertEquals(20 * Sampling.MAX_SAMPLE_STRETCH, period);
    }

    @Test
    void samplesThatComeSlowlyBringThePeriodBackToTheConfiguredOne() {
        long slow = 4 * Sampling.MIN_SAMPLE_GAP_NANOS + 1;
        assertEquals(640, Sampling.adaptPeriod(1280, 20, slow));
        int period = 1280;
        for (int i = 0; i < 20; i++) {
            period = Sampling.adaptPeriod(period, 20, slow);
        }
        assertEquals(20, period);
        // between the two bounds the period holds
        assertEquals(160, Sampling.adaptPeriod(160, 20, 2 * Sampling.MIN_SAMPLE_GAP_NANOS));
    }

    @Test
    void everyTupleTimedIsNeverStretchedAndNeverSamplingStaysSo() {
        assertEquals(1, Sampling.adaptPeriod(1, 1, 0));
        assertEquals(Integer.MAX_VALUE, Sampling.adaptPeriod(Integer.MAX_VALUE, Integer.MAX_VALUE, 0));
    }

    @Test
    void aSampleDueInsideAnotherWaitsForTheNextTupleItsCallerDoesNotTime() {
        assertFalse(Sampling.takesSample(true, 20, 20));
        assertFalse(Sampling.takesSample(true, 39, 20));
        assertTrue(Sampling.takesSample(false, 20, 20));
        assertTrue(Sampling.takesSample(false, 21, 20));
    }

    @Test
    void aTaskFusedUnderOneTimedAtEveryTupleIsStillTimedEveryOtherTuple() {
        assertFalse(Sampling.takesSample(true, 1, 1));
        assertTrue(Sampling.takesSample(true, 2, 1));
        assertTrue(Sampling.takesSample(true, 40, 20));
    }

    @Test
    void theLongestPeriodDoesNotOverflowIntoASample() {
        assertFalse(Sampling.takesSample(true, Integer.MAX_VALUE, Integer.MAX_VALUE));
        assertFalse(Sampling.takesSample(true, Integer.MAX_VALUE, Integer.MAX_VALUE / 2 + 1));
    }
}
