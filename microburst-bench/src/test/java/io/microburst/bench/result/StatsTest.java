package io.microburst.bench.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatsTest {
    @Test
    void medianOfOddCountIsTheMiddleValue() {
        assertEquals(5.0, Stats.median(List.of(9.0, 1.0, 5.0)));
    }

    @Test
    void medianOfEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(4.5, Stats.median(List.of(8.0, 1.0, 4.0, 5.0)));
    }

    @Test
    void medianIgnoresMissingValues() {
        assertEquals(3.0, Stats.median(Arrays.asList(Double.NaN, 3.0, null)));
        assertTrue(Double.isNaN(Stats.median(List.of(Double.NaN))));
        assertTrue(Double.isNaN(Stats.median(List.of())));
    }

    @Test
    void ratioIsMissingWithoutAPositiveDenominator() {
        assertEquals(2.5, Stats.ratio(5, 2));
        assertTrue(Double.isNaN(Stats.ratio(5, 0)));
        assertTrue(Double.isNaN(Stats.ratio(Double.NaN, 2)));
    }

    @Test
    void spreadIsRangeOverMedian() {
        assertEquals(0.5, Stats.spread(List.of(8.0, 10.0, 13.0)), 1e-12);
        assertTrue(Double.isNaN(Stats.spread(List.of(8.0))));
    }
}
