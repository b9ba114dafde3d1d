package io.microburst.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ConfValueParserTest {

    @Test
    void integersAreIntUntilTheyNeedLong() {
        assertEquals(42, ConfValueParser.parse("42"));
        assertEquals(-7, ConfValueParser.parse("-7"));
        assertEquals(2147483647, ConfValueParser.parse("2147483647"));
        assertEquals(2147483648L, ConfValueParser.parse("2147483648"));
        assertEquals(-2147483649L, ConfValueParser.parse("-2147483649"));
    }

    @Test
    void integerTooLargeForLongStaysText() {
        assertEquals("99999999999999999999", ConfValueParser.parse("99999999999999999999"));
    }

    @Test
    void decimalsAreDouble() {
        assertEquals(0.5, ConfValueParser.parse("0.5"));
        assertEquals(1e-3, ConfValueParser.parse("1e-3"));
        assertEquals(-2.0, ConfValueParser.parse("-2."));
        assertEquals(0.25, ConfValueParser.parse(".25"));
    }

    @Test
    void booleansInAnyCase() {
        assertEquals(true, ConfValueParser.parse("true"));
        assertEquals(false, ConfValueParser.parse("FALSE"));
        assertEquals(true, ConfValueParser.parse(" True "));
    }

    @Test
    void everythingElseIsAStringAndQuotesForceOne() {
        assertEquals("hello world", ConfValueParser.parse("hello world"));
        assertEquals("42", ConfValueParser.parse("\"42\""));
        assertEquals("true", ConfValueParser.parse("'true'"));
        assertEquals("1.2.3", ConfValueParser.parse("1.2.3"));
        assertEquals("", ConfValueParser.parse(""));
        assertEquals("yes", ConfValueParser.parse("yes"));
    }
}
