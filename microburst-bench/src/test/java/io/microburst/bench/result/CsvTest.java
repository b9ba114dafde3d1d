package io.microburst.bench.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CsvTest {
    @Test
    void fieldsWithSeparatorsQuotesOrLineBreaksAreQuoted() {
        assertEquals("plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",", Csv.line(Arrays.asList("plain", "a,b", "say \"hi\"",
            "two\nlines", null)));
    }

    @Test
    void missingNumbersAreEmptyFields() {
        assertEquals("1.50000,,7", Csv.line(Arrays.asList(1.5, Double.NaN, 7)));
    }

    @Test
    void aRunLineHasOneFieldPerHeaderColumn() {
        String line = Csv.runLine(TestRuns.withLatency("w", "storm", 1, 10, 100));
        assertEquals(Csv.RUN_HEADER.size(), line.split(",", -1).length);
        String failed = Csv.runLine(TestRuns.failed("w", "storm", 1, "boom"));
        assertEquals(Csv.RUN_HEADER.size(), failed.split(",", -1).length);
    }

    @Test
    void aSummaryLineHasOneFieldPerHeaderColumn() {
        for (SummaryRow row : Summary.of(java.util.List.of(TestRuns.scaled("wc", 1, "microburst", 8e6),
            TestRuns.scaled("wc", 2, "microburst", 12e6), TestRuns.failed("x", "storm", 1, "boom")))) {
            assertEquals(Csv.SUMMARY_HEADER.size(), Csv.summaryLine(row).split(",", -1).length, row.workload());
        }
    }
}
