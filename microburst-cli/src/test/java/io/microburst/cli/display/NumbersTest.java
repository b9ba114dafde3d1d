package io.microburst.cli.display;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NumbersTest {

    @Test
    void threeSignificantDigitsWithSuffixes() {
        assertEquals("0", Numbers.human(0));
        assertEquals("999", Numbers.human(999.4));
        assertEquals("1.00k", Numbers.human(1000));
        assertEquals("12.3k", Numbers.human(12_340));
        assertEquals("123k", Numbers.human(123_400));
        assertEquals("1.00M", Numbers.human(999_999));
        assertEquals("4.56M", Numbers.human(4_560_000));
        assertEquals("1.20G", Numbers.human(1.2e9));
        assertEquals("-2.50k", Numbers.human(-2500));
        assertEquals("-", Numbers.human(Double.NaN));
    }

    @Test
    void mebibytes() {
        assertEquals("1.5 MiB", Numbers.mebibytes(1024 * 1024 * 3 / 2));
    }
}
