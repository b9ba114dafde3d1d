package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Storm's three-decimal numbers, written without a formatter, are what {@code String.format("%.3f")} writes. */
class StormJsonDecimalTest {
    @Test
    void writesWhatTheFormatterWrites() {
        double[] edges = {0, -0.0, 0.0005, 0.0015, 0.0025, -0.0005, -0.0001, 1.0005, 2.5e-4, 0.1235, 0.1245, 999.9995,
            1e-9, 123456789.0125, 1e20, -1e20, Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, 4.35,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (double d : edges) {
            assertEquals(String.format(Locale.ROOT, "%.3f", d), StormJson.decimal(d), Double.toString(d));
        }
        assertEquals("0.000", StormJson.decimal(Double.NaN));
        Random random = new Random(38);
        for (int i = 0; i < 40_000; i++) {
            double d = switch (i % 4) {
                case 0 -> random.nextDouble();
                case 1 -> random.nextInt(1_000_000) / 1e4 + 0.0005; // on a rounding boundary, as far as a double is
                case 2 -> (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(12) - 4);
                default -> Double.longBitsToDouble(random.nextLong());
            };
            if (Double.isNaN(d)) {
                continue;
            }
            assertEquals(String.format(Locale.ROOT, "%.3f", d), StormJson.decimal(d), Double.toString(d));
        }
    }
}
