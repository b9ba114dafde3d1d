package io.microburst.cli.display;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.stats.ComponentCounters;
import io.microburst.cli.stats.ComponentKind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class SummaryFormatterTest {

    @Test
    void reportsEveryFigure() {
        RunSummary summary = new RunSummary("wordcount", 20_000_000, Duration.ofSeconds(4),
                List.of(new ComponentCounters("sentences", ComponentKind.SPOUT, 1, 2_500_000, 0),
                        new ComponentCounters("count", ComponentKind.BOLT, 2, 0, 20_000_000)),
                14, 5, Optional.of(Duration.ofMillis(120)), 1.874, OptionalLong.of(200L * 1024 * 1024));

        String text = SummaryFormatter.format(summary);

        assertEquals(5_000_000.0, summary.wordsPerSecond(), 1e-6);
        assertTrue(text.contains("words counted          20,000,000"), text);
        assertTrue(text.contains("words/s                5.00M  (over 4.0 s"), text);
        assertTrue(text.contains("  sentences x1         emitted 2,500,000"), text);
        assertTrue(text.contains("  count x2             executed 20,000,000, emitted 0"), text);
        assertTrue(text.contains("14 live in the JVM, 5 started by the engine"), text);
        assertTrue(text.contains("120 ms (cluster construction to first word counted)"), text);
        assertTrue(text.contains("1.87 cores"), text);
        assertTrue(text.contains("200.0 MiB"), text);
    }

    @Test
    void saysWhatIsUnknown() {
        RunSummary summary = new RunSummary("t", 0, Duration.ZERO, List.of(), 3, 0, Optional.empty(), -1,
                OptionalLong.empty());

        String text = SummaryFormatter.format(summary);

        assertEquals(0.0, summary.wordsPerSecond());
        assertTrue(text.contains("no word was counted"), text);
        assertTrue(text.contains("CPU                    unknown"), text);
        assertTrue(text.contains("resident memory        unknown"), text);
    }
}
