package io.microburst.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import io.microburst.cli.Command;
import io.microburst.cli.display.PlainLineRenderer;
import io.microburst.cli.display.RunSummary;
import io.microburst.cli.stats.ComponentCounters;
import io.microburst.cli.stats.ProcessMetrics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The demo on the Microburst engine: live lines, a summary that adds up, and no threads left behind. A smoke test of
 * the whole path; it runs a few seconds so that a loaded machine still counts some words.
 */
class DemoRunTest {

    @Test
    void runsWordCountShowsRatesAndCleansUp() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Set<Long> threadsBefore = ProcessMetrics.liveThreadIds();

        RunSummary summary = new DemoRun(new Command.Demo(Duration.ofSeconds(6), 2), MicroburstCluster::new,
                new PlainLineRenderer(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).run();

        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(Pattern.compile("(?m)^\\[\\s+\\d+s\\] wordcount  sentences out ").matcher(text).find(), text);
        assertTrue(text.contains("Summary of wordcount"), text);
        assertEquals(WordCountTopology.COMPONENTS,
                summary.components().stream().map(ComponentCounters::componentId).toList());
        ComponentCounters split = summary.components().get(1);
        ComponentCounters count = summary.components().get(2);
        assertEquals(2, split.executors());
        assertTrue(summary.wordsCounted() > 0, text);
        assertEquals(count.executed(), summary.wordsCounted());
        ComponentCounters sentences = summary.components().get(0);
        // the summary is read once the deactivated spout's tuples have all gone through
        assertEquals(sentences.emitted(), split.executed(), "every sentence emitted is split\n" + text);
        assertEquals(split.emitted(), count.executed(), "every word split is counted\n" + text);
        assertTrue(summary.startup().isPresent(), text);
        assertTrue(summary.engineThreads() > 0, text);
        awaitNoThreadsSince(threadsBefore);
    }

    private static void awaitNoThreadsSince(Set<Long> baseline) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (ProcessMetrics.threadsStartedSince(baseline) > 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("threads left running after the demo: "
                        + ProcessMetrics.threadsStartedSince(baseline));
            }
            Thread.sleep(20);
        }
    }
}
